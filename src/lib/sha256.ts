/**
 * SHA-256 content digests. `node:crypto` is loaded on the first digest, not at start-up: importing it costs
 * ~20 ms, and Web Crypto's digest is asynchronous while its callers are not.
 *
 * @module
 */
import process from "node:process";

type Crypto = typeof import("node:crypto");
let crypto: Crypto | undefined;

/** The lowercase hex SHA-256 of `data` (text is hashed as UTF-8). */
export function sha256Hex(data: Uint8Array | string): string {
  crypto ??= process.getBuiltinModule("node:crypto") as Crypto;
  return crypto.createHash("sha256").update(data).digest("hex");
}
