/**
 * Waiting for this project's service to run again, as the bridge of `weft mcp` does after the service stopped
 * or restarted under it: without starting one (a person may have stopped it), and without asking again and
 * again, by watching `.weft/`, where a service that starts writes its files.
 *
 * @module
 */

import { dirname } from "node:path";
import { weftPaths } from "../weft_dir/paths.ts";
import { inspectLock } from "../weft_dir/lock.ts";
import { ServiceOfflineError } from "./offline.ts";
import { verifiedConnection } from "./verified_connection.ts";

/** Resolves true once the project's service runs, false when `signal` aborts first. */
export async function serviceRunsAgain(projectDir: string, signal: AbortSignal): Promise<boolean> {
  const dir = dirname(weftPaths(projectDir).connection);
  while (!signal.aborted) {
    await Deno.mkdir(dir, { recursive: true });
    // The watch starts before the look, so no start goes unseen.
    const watcher = Deno.watchFs(dir, { recursive: false });
    const stop = () => watcher.close();
    signal.addEventListener("abort", stop, { once: true });
    try {
      if (await serviceRuns(projectDir)) return true;
      for await (const _event of watcher) break;
    } finally {
      signal.removeEventListener("abort", stop);
      try {
        watcher.close();
      } catch {
        // closed on abort already
      }
    }
  }
  return false;
}

/** Whether the project's service runs: its lock's holder listens on its port (no token is sent). */
async function serviceRuns(projectDir: string): Promise<boolean> {
  try {
    await verifiedConnection(projectDir);
    return true;
  } catch (error) {
    if (error instanceof ServiceOfflineError) return false;
    throw error;
  }
}

/**
 * Whether the project's service crashed: its lock names a process that is gone. Such a service does not come
 * back by itself (`weft start` clears what it left), so a command need not wait for it as for a restart.
 */
export async function serviceCrashed(projectDir: string): Promise<boolean> {
  return (await inspectLock(weftPaths(projectDir)).catch(() => undefined))?.kind === "stale";
}
