/**
 * How the terminal commands reach the service: only through MCP on `/internal/mcp`, like any other client.
 *
 * @module
 */

import { connect, type WeftClient } from "../../client/connect.ts";
import { ServiceOfflineError } from "../../client/offline.ts";
import { inspectLock } from "../../weft_dir/lock.ts";
import { weftPaths } from "../../weft_dir/paths.ts";
import { spawnService } from "../spawn.ts";

/** Options of {@linkcode withClient}. */
export interface ClientOptions {
  /** Start the service in the background when none runs (a crashed one's leftovers are cleared safely). */
  start?: boolean;
  /** Where to say that the service is being started. */
  progress?: (line: string) => void;
}

/** Opens a CLI session with the project's service, runs `use` with it, and always closes it. */
export async function withClient<T>(
  projectDir: string,
  use: (client: WeftClient) => Promise<T>,
  options: ClientOptions = {},
): Promise<T> {
  const client = await open(projectDir, options);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

function open(projectDir: string, options: ClientOptions): Promise<WeftClient> {
  return reachService(
    projectDir,
    () => connect(projectDir, { source: "cli", clientName: "weft-cli" }),
    options,
  );
}

/**
 * Runs `attempt` (which reaches the project's service); when it finds the service offline and `options.start`
 * allows, starts the service in the background and runs `attempt` once more.
 */
export async function reachService<T>(
  projectDir: string,
  attempt: () => Promise<T>,
  options: ClientOptions = {},
): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!(error instanceof ServiceOfflineError) || !options.start) throw error;
    // A live process holding the lock is never replaced; only a free or stale lock lets us start one.
    if ((await inspectLock(weftPaths(projectDir))).kind === "held") throw error;
  }
  options.progress?.("starting the weft service for this project…");
  await spawnService(projectDir);
  return await attempt();
}
