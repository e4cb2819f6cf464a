/**
 * Reaching this project's service: finding it, proving it is the project's own ({@linkcode verifiedConnection}),
 * and starting it in the background when none runs and the caller may. Every client of the service reaches it
 * this way: the bridge an IDE launches, every command, `weft studio`.
 *
 * @module
 */

import type { ConnectionInfo } from "../weft_dir/connection.ts";
import { inspectLock } from "../weft_dir/lock.ts";
import { weftPaths } from "../weft_dir/paths.ts";
import { ServiceOfflineError, UntrustedStateOffline } from "./offline.ts";
import { startService } from "./service_start.ts";
import { verifiedConnection } from "./verified_connection.ts";

/** Options of {@linkcode reachService}. */
export interface ReachOptions {
  /** Start the service in the background when none runs (a crashed one's leftovers are cleared safely). */
  start?: boolean;
  /** Where to say that the service is being started. */
  progress?: (line: string) => void;
  /**
   * Called just before the service is started; `trusted` says whether `.weft/` was found to be weft's own
   * (only then may anything in it be read).
   */
  starting?: (trusted: boolean) => void;
}

/**
 * The project's checked connection metadata, tokens included. When no service runs and `options.start`
 * allows, starts one and checks again; a live process holding the lock is never replaced, so then the reason
 * it does not answer is thrown instead ({@linkcode ServiceOfflineError}).
 */
export async function reachService(projectDir: string, options: ReachOptions = {}): Promise<ConnectionInfo> {
  let trusted = true;
  try {
    return await verifiedConnection(projectDir);
  } catch (error) {
    if (!(error instanceof ServiceOfflineError) || !options.start) throw error;
    trusted = !(error instanceof UntrustedStateOffline);
    // Untrusted state is not read: starting is left to `weft serve`, which refuses it and says how to fix it.
    if (trusted && (await inspectLock(weftPaths(projectDir))).kind === "held") throw error;
  }
  options.starting?.(trusted);
  options.progress?.("starting the weft service for this project…");
  await startService(projectDir);
  return await verifiedConnection(projectDir);
}
