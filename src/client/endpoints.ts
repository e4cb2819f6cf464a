/**
 * The service's MCP endpoints as a client addresses them: which path a client of each source opens, with
 * which token, and how long a tool call there may wait for a person.
 *
 * @module
 */

import type { ConnectionInfo } from "../weft_dir/connection.ts";
import type { Endpoint } from "../mcp/endpoints.ts";

export { type Endpoint, endpointFor, HUMAN_WAIT_MS, type TokenClass } from "../mcp/endpoints.ts";

/** The token of `endpoint`'s class: an endpoint is only ever sent its own class's token. */
export function endpointToken(connection: ConnectionInfo, endpoint: Endpoint): string {
  return endpoint.tokenClass === "internal" ? connection.internalToken : connection.externalToken;
}
