/**
 * Identifiers of Runs, actions, agent calls, Artifacts and Records: a readable prefix and 128 random bits,
 * so an id can neither be guessed nor collide.
 *
 * @module
 */
import { randomId } from "../lib/tokens.ts";

/** The kinds of things weft names, by prefix. */
export type IdPrefix = "run" | "act" | "call" | "art" | "rec" | "cmd";

/** A fresh, unguessable id such as `run_3q2…`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomId(16)}`;
}
