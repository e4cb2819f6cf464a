/**
 * Input schemas several tools share: the identities clients pass (Run, action, call and claim ids are
 * non-blank strings of at most 512 characters, so oversize or blank ids are refused before they reach the
 * engine), workflow and stage names, and the paging fields of the list tools.
 *
 * @module
 */

import { z } from "../../lib/zod.ts";
import { PAGE_SIZE } from "../../engine/paging.ts";

/** A non-blank identity of at most 512 characters. */
export const IdSchema = z.string().max(512).refine((value) => value.trim().length > 0, "must not be blank");

/** A workflow or stage name as a filter or target. */
export const Name = z.string().min(1).max(200);

/** The paging fields of a list tool: a page size ({@linkcode PAGE_SIZE}) and the opaque cursor of a page. */
export const Paging = {
  limit: z.number().int().min(PAGE_SIZE.min).max(PAGE_SIZE.max).optional(),
  cursor: z.string().min(1).max(1024).optional(),
};
