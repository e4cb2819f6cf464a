/**
 * Bearer tokens: generation and constant-time comparison.
 *
 * @module
 */
import { base64url } from "./base64url.ts";

/** A fresh credential: 32 random bytes, base64url without padding. */
export function newToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/** A short random id (for instances, sessions and the like), base64url of `bytes` random bytes. */
export function randomId(bytes = 12): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/**
 * Compares a presented secret with the expected one in time that depends only on the expected length, so
 * that response timing does not reveal how much of a guess was right. It compares UTF-16 code units, with no
 * copy: every request is checked, and encoding both strings to bytes first was garbage on each.
 */
export function constantTimeEqual(presented: string, expected: string): boolean {
  let diff = presented.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) {
    // Past the end of a shorter presented string, charCodeAt gives NaN, which `| 0` turns into 0.
    diff |= (presented.charCodeAt(i) | 0) ^ expected.charCodeAt(i);
  }
  return diff === 0;
}
