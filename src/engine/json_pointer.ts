/**
 * RFC 6901 JSON pointers: how workflows address parts of a stage state.
 *
 * @module
 */

/** Escapes one reference token (`~` as `~0`, `/` as `~1`) so it can be appended to a pointer. */
export function escapeToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The unescaped reference tokens of a pointer. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer.slice(1).split("/").map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}

/** The value at `pointer`, or `undefined` when nothing is there. */
export function getAt(document: unknown, pointer: string): unknown {
  let current = document;
  for (const token of pointerTokens(pointer)) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, token)) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/**
 * A copy of `document` with `value` placed at `pointer`, creating missing parent objects; the original is
 * never mutated, so a rejected write leaves the stored state untouched.
 */
export function setAt(document: unknown, pointer: string, value: unknown): unknown {
  const tokens = pointerTokens(pointer);
  if (tokens.length === 0) return structuredClone(value);
  const root = structuredClone(document ?? {}) as Record<string, unknown>;
  let current: Record<string, unknown> = root;
  for (const token of tokens.slice(0, -1)) {
    const next = current[token];
    if (typeof next !== "object" || next === null) current[token] = {};
    current = current[token] as Record<string, unknown>;
  }
  const last = tokens[tokens.length - 1];
  if (Array.isArray(current) && last === "-") current.push(structuredClone(value));
  else current[last] = structuredClone(value);
  return root;
}
