/**
 * Taking a project's `.weft/` for one service instance: the trust checks (which ask git whether `.weft` is
 * tracked), the folder, the previous run's connection (its port and tokens are kept) and the lock. A module
 * of its own and light to load, so that `weft serve` does all this while the service's modules still load.
 *
 * @module
 */

import { randomId } from "../lib/tokens.ts";
import { type ConnectionInfo, readConnection } from "./connection.ts";
import { acquireLock, type LockOwner } from "./lock.ts";
import { ensureWeftDir, type WeftPaths, weftPaths } from "./paths.ts";
import { verifyWeftDir } from "./trust.ts";

/** A `.weft/` this instance holds the lock of. */
export interface ClaimedStateDir {
  paths: WeftPaths;
  /** The connection the previous run wrote, if any. */
  previous: ConnectionInfo | null;
  owner: LockOwner;
}

/**
 * Verifies, creates when missing and locks the project's `.weft/` for a new instance of this process. Throws
 * `UntrustedStateError` for state weft did not make and `LockHeldError` when a service already runs there.
 */
export async function claimStateDir(projectDir: string): Promise<ClaimedStateDir> {
  const paths = weftPaths(projectDir);
  // State weft did not make is never used: the start fails with what was found and how to recover.
  await verifyWeftDir(paths);
  await ensureWeftDir(paths);
  const previous = await readConnection(paths, { verified: true });
  const owner: LockOwner = {
    pid: Deno.pid,
    instanceId: `inst_${randomId(9)}`,
    startedAt: new Date().toISOString(),
  };
  await acquireLock(paths, owner);
  return { paths, previous, owner };
}
