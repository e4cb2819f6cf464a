/**
 * What the project's service last recorded of itself, read without reaching it: its port and tokens outlive
 * the instance that wrote them, so an IDE's configuration and `weft token` can be had while it is stopped.
 *
 * @module
 */

import { type ConnectionInfo, readConnection } from "../weft_dir/connection.ts";
import { weftPaths } from "../weft_dir/paths.ts";
import { ClientFailure } from "./failure.ts";

/**
 * The connection metadata the service last wrote for `projectDir`. `SERVICE_OFFLINE` when no service has run
 * for the project yet, saying `what` needed it (and `fix`, when starting it once is not the only way out);
 * state weft did not make is refused as {@linkcode readConnection} refuses it.
 */
export async function recordedConnection(
  projectDir: string,
  what: string,
  fix = "run `weft start` once for this project",
): Promise<ConnectionInfo> {
  const connection = await readConnection(weftPaths(projectDir));
  if (connection) return connection;
  throw new ClientFailure("SERVICE_OFFLINE", `${what}, and the service has never run for this project`, fix);
}
