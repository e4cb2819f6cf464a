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

const encoder = new TextEncoder();

/**
 * Compares a presented secret with the expected one in time that depends only on the expected length, so
 * that response timing does not reveal how much of a guess was right.
 */
export function constantTimeEqual(presented: string, expected: string): boolean {
  const a = encoder.encode(presented);
  const b = encoder.encode(expected);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ b[i];
  return diff === 0;
}
