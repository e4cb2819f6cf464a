/**
 * How deeply JSON text nests, counted before it is parsed: V8 parses and prints any depth, but every
 * recursive walk after it (validation, fingerprints, digests, storage) overflows the stack on deep enough
 * values, and a `RangeError` there fails whatever was asked instead of the one input that caused it.
 *
 * @module
 */

/**
 * The deepest nesting of arrays and objects weft accepts in any JSON it is handed (request bodies, workflow
 * manifests). No real document comes near it.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * The deepest nesting of `[` and `{` in JSON text, counted in one pass over the bytes before parsing (brackets
 * inside strings do not count). Malformed text is left to the parser.
 */
export function nestingDepth(bytes: Uint8Array): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === 0x5c) i++; // backslash: skip the escaped byte
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return deepest;
}
