/**
 * Identifiers of Runs, actions, agent calls, Artifacts and Records: a readable prefix and 128 random bits,
 * so an id can neither be guessed nor collide.
 *
 * @module
 */

/** The kinds of things weft names, by prefix. */
export type IdPrefix = "run" | "act" | "call" | "art" | "rec";

/** A fresh, unguessable id such as `run_3q2…`. */
export function newId(prefix: IdPrefix): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const base64 = btoa(String.fromCharCode(...bytes));
  return `${prefix}_${base64.replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "")}`;
}
