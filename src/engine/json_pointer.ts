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
 * A copy of `document` with (a copy of) `value` placed at `pointer`, creating missing parent objects; the
 * original is never mutated, so a rejected write leaves the stored state untouched. Only the objects and
 * arrays on the pointer's path are copied, the rest is shared with the original: the engine replaces a
 * Run's state and never changes it in place, so a write need not pay for a copy of the whole state.
 */
export function setAt(document: unknown, pointer: string, value: unknown): unknown {
  const tokens = pointerTokens(pointer);
  if (tokens.length === 0) return structuredClone(value);
  return placed(document ?? {}, tokens, 0, structuredClone(value));
}

/** A shallow copy of `node` with `value` placed at `tokens[index..]`; missing or scalar parents become `{}`. */
function placed(node: unknown, tokens: string[], index: number, value: unknown): unknown {
  const copy = Array.isArray(node) ? [...node] : { ...(node as Record<string, unknown>) };
  const token = tokens[index];
  if (index === tokens.length - 1) {
    if (Array.isArray(copy) && token === "-") copy.push(value);
    else (copy as Record<string, unknown>)[token] = value;
    return copy;
  }
  const next = (copy as Record<string, unknown>)[token];
  (copy as Record<string, unknown>)[token] = placed(
    typeof next === "object" && next !== null ? next : {},
    tokens,
    index + 1,
    value,
  );
  return copy;
}
