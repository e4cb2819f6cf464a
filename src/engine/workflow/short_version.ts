/**
 * The short form of a workflow version (the SHA-256 of its content, `src/lib/sha256.ts`) that clients see.
 *
 * @module
 */

/** How many hex digits of a version clients see: enough to tell versions of one workflow apart. */
export const SHORT_VERSION_LENGTH = 12;

/** The short form of a version that views and messages show. */
export function shortVersion(version: string): string {
  return version.slice(0, SHORT_VERSION_LENGTH);
}
