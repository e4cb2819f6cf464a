/**
 * The connection metadata file, `.weft/connection.json`: how clients find and authenticate to the service.
 *
 * @module
 */

import { replaceFile } from "../lib/replace_file.ts";
import { newToken } from "../lib/tokens.ts";
import type { WeftPaths } from "./paths.ts";
import { UntrustedStateError, verifyWeftDir } from "./trust.ts";

/** The only URL a service of weft has: plain HTTP on 127.0.0.1 and its port. */
export function loopbackUrl(port: number): string {
  return `http://127.0.0.1:${port}`;
}

/** The fields docs/reference.md promises clients ("Connecting"); the tokens outlive the instance that wrote them. */
export interface ConnectionInfo {
  version: 1;
  url: string;
  port: number;
  pid: number;
  instanceId: string;
  externalToken: string;
  internalToken: string;
}

/**
 * Reads the metadata, or `null` when there is none or it cannot be understood. Throws
 * {@linkcode UntrustedStateError} when `.weft/` is not weft's own (unless the caller has just `verified` it),
 * or when the file names anything but this machine's loopback address on its recorded port: weft never
 * connects, or sends a token, anywhere else.
 */
export async function readConnection(
  paths: WeftPaths,
  options: { verified?: boolean } = {},
): Promise<ConnectionInfo | null> {
  if (!options.verified) await verifyWeftDir(paths, { readOnly: true });
  let text: string;
  try {
    text = await Deno.readTextFile(paths.connection);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  try {
    const value = JSON.parse(text);
    if (
      value?.version === 1 && typeof value.url === "string" && Number.isInteger(value.port) &&
      Number.isInteger(value.pid) && typeof value.instanceId === "string" &&
      typeof value.externalToken === "string" && typeof value.internalToken === "string"
    ) {
      if (value.port < 1 || value.port > 65535 || value.url !== loopbackUrl(value.port)) {
        throw new UntrustedStateError(
          ".weft/connection.json names a URL other than this machine's loopback address on its port",
        );
      }
      return value as ConnectionInfo;
    }
  } catch (error) {
    if (error instanceof UntrustedStateError) throw error;
    // A torn or hand-edited file is treated as absent; new tokens are then issued.
  }
  return null;
}

/** Writes the metadata atomically, with mode 0600 before it is in place, so that readers never see half. */
export async function writeConnection(paths: WeftPaths, info: ConnectionInfo): Promise<void> {
  await replaceFile(paths.connection, JSON.stringify(info, null, 2) + "\n", { mode: 0o600 });
}

/** The tokens to use for a new instance: the previous ones when present, fresh ones otherwise. */
export function tokensFrom(
  previous: ConnectionInfo | null,
): { externalToken: string; internalToken: string } {
  return {
    externalToken: previous?.externalToken ?? newToken(),
    internalToken: previous?.internalToken ?? newToken(),
  };
}
