/**
 * Raw JSON-RPC messages of MCP, for tests that speak to an endpoint without the SDK client.
 *
 * @module
 */

// The version the raw requests of every suite speak, in the body and in their headers.
const PROTOCOL_VERSION = "2025-06-18";

/** An `initialize` request from a client called `clientName`, with no capabilities. */
export function initializeRequest(clientName: string, id = 1) {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: clientName, version: "0" },
    },
  };
}
