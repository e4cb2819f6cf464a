/**
 * Finding this project's service before any token is sent: its metadata, and proof that the instance it names
 * holds the project's lock and listens on its port. Free of the MCP SDK, so that `weft mcp` starts without it.
 *
 * @module
 */

import { type ConnectionInfo, readConnection } from "../weft_dir/connection.ts";
import { inspectLock } from "../weft_dir/lock.ts";
import { listensOn } from "../weft_dir/process.ts";
import { UntrustedStateError } from "../weft_dir/trust.ts";
import { weftPaths } from "../weft_dir/paths.ts";
import { ServiceOfflineError, UntrustedStateOffline } from "./offline.ts";

/**
 * The project's connection metadata, tokens included, once it is checked that the instance it names holds the
 * project's lock and that the very process the lock names listens on its port: only then may a token be sent.
 */
export async function verifiedConnection(projectDir: string): Promise<ConnectionInfo> {
  const paths = weftPaths(projectDir);
  let connection;
  try {
    connection = await readConnection(paths);
  } catch (error) {
    if (!(error instanceof UntrustedStateError)) throw error;
    throw new UntrustedStateOffline(`untrusted state: ${error.finding}`, true);
  }
  if (!connection) throw new ServiceOfflineError("no weft service has run for this project yet");
  const lock = await inspectLock(paths);
  if (lock.kind === "free") throw new ServiceOfflineError("the service is not running");
  if (lock.kind === "stale") {
    throw new ServiceOfflineError(`leftovers of a crashed service: ${lock.reason}`, true);
  }
  if (lock.owner.instanceId !== connection.instanceId) {
    throw new ServiceOfflineError("the service is still starting or its metadata is out of date", true);
  }
  // Before any token is sent: the port must be served by the very process the lock names.
  if (!listensOn(lock.owner.pid, connection.port)) {
    throw new ServiceOfflineError(
      `port ${connection.port} is not served by the process the lock names (pid ${lock.owner.pid}); ` +
        "weft sends no token there",
      true,
    );
  }
  return connection;
}
