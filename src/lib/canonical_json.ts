/**
 * Canonical JSON: one text per JSON value, whatever the key order it arrived with, so that two inputs can be
 * compared by their text ("the same call", "the same workflow definition").
 *
 * @module
 */

/** The JSON text of `value` with object keys sorted at every level and `undefined` members dropped. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member) => {
    if (typeof member !== "object" || member === null || Array.isArray(member)) return member;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(member).sort()) sorted[key] = (member as Record<string, unknown>)[key];
    return sorted;
  }) ?? "null";
}
