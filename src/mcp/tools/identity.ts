/**
 * Input schemas for the identities clients pass: Run, action, call and claim ids are non-blank strings of at
 * most 512 characters, so oversize or blank ids are refused before they reach the engine.
 *
 * @module
 */

import { z } from "zod";

/** A non-blank identity of at most 512 characters. */
export const Identity = z.string().max(512).refine((value) => value.trim().length > 0, "must not be blank");
