/**
 * The connection metadata file, `.weft/connection.json`: how clients find and authenticate to the service.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { newToken, randomId } from "../lib/tokens.ts";
import type { WeftPaths } from "./paths.ts";

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

/** Reads the metadata, or `null` when there is none or it cannot be understood. */
export async function readConnection(paths: WeftPaths): Promise<ConnectionInfo | null> {
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
    ) return value as ConnectionInfo;
  } catch {
    // A torn or hand-edited file is treated as absent; new tokens are then issued.
  }
  return null;
}

/** Writes the metadata atomically (temporary file with mode 0600, then rename) so readers never see half. */
export async function writeConnection(paths: WeftPaths, info: ConnectionInfo): Promise<void> {
  const temporary = join(dirname(paths.connection), `.connection.${randomId(6)}.tmp`);
  await Deno.writeTextFile(temporary, JSON.stringify(info, null, 2) + "\n", { mode: 0o600, createNew: true });
  try {
    if (Deno.build.os !== "windows") await Deno.chmod(temporary, 0o600);
    await Deno.rename(temporary, paths.connection);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
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
