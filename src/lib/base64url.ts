/**
 * base64url without padding (RFC 4648 §5), the alphabet of weft's tokens, ids and page cursors, on the
 * built-in `Uint8Array` base64 methods.
 *
 * @module
 */

/** Encodes bytes as base64url without padding. */
export function base64url(bytes: Uint8Array): string {
  return bytes.toBase64({ alphabet: "base64url", omitPadding: true });
}

/** Decodes base64url (padding optional); throws a `SyntaxError` on any other character. */
export function fromBase64url(text: string): Uint8Array {
  return Uint8Array.fromBase64(text, { alphabet: "base64url" });
}
