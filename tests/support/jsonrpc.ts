/**
 * Raw MCP over HTTP, for tests that speak to an endpoint without the SDK client: the JSON-RPC messages, the
 * headers of a POST, and opening a session.
 *
 * @module
 */

import assert from "node:assert/strict";
import { type ServedProject, tokenFor } from "./service.ts";

/** The version the raw requests of every suite speak, in the body and in their headers. */
export const PROTOCOL_VERSION = "2025-06-18";

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

/**
 * The headers of a raw MCP POST: the bearer `token` (none when undefined), JSON in, JSON or an event stream
 * out, and the protocol version; `extra` adds or replaces any of them.
 */
export function mcpHeaders(
  token: string | undefined,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": PROTOCOL_VERSION,
    ...extra,
  };
}

/** Opens a session on `path` with a raw `initialize` and the token of the path's class; resolves with its id. */
export async function openRawSession(
  served: ServedProject,
  path: string,
  clientName = "raw",
): Promise<string> {
  const response = await fetch(served.url + path, {
    method: "POST",
    headers: mcpHeaders(tokenFor(served, path)),
    body: JSON.stringify(initializeRequest(clientName)),
  });
  await response.body?.cancel();
  assert.equal(response.status, 200, `initialize on ${path}`);
  const id = response.headers.get("mcp-session-id");
  assert.ok(id, `a session id from ${path}`);
  return id;
}
