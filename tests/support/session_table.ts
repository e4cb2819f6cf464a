/**
 * A session table of bare MCP servers on a clock the test controls, and the two requests its tests make most:
 * opening a session, and opening that session's event stream (GET).
 */

import { type SessionLimits, SessionTable } from "../../src/http/sessions.ts";
import type { Endpoint } from "../../src/mcp/endpoints.ts";
import { Server } from "../../src/mcp/sdk.ts";
import { Logger } from "../../src/lib/logger.ts";
import { initializeRequest, mcpHeaders, PROTOCOL_VERSION } from "./jsonrpc.ts";

/** The initialize request every session of these tables opens with. */
export const INITIALIZE = initializeRequest("t");

/** A table of up to 10 sessions per class that go idle after 1000 ms of `clock`, unless `limits` say else. */
export function tableOn(clock: () => number, limits: Partial<SessionLimits> = {}): SessionTable {
  return new SessionTable(
    { maxSessions: 10, idleMs: 1000, ...limits },
    () => ({ server: new Server({ name: "t", version: "0" }, { capabilities: { tools: {} } }) }),
    Logger.silent(),
    { now: clock },
  );
}

/** The POST that initializes a session on `path`. */
export function initRequest(path = "/mcp"): Request {
  return new Request(`http://127.0.0.1:1${path}`, {
    method: "POST",
    headers: mcpHeaders(undefined),
    body: JSON.stringify(INITIALIZE),
  });
}

/** Opens a session on `endpoint` and returns its id (the initialize answer is read and dropped). */
export async function openSession(table: SessionTable, endpoint: Endpoint): Promise<string> {
  const opened = await table.handle(initRequest(endpoint.path), endpoint, INITIALIZE);
  await opened.body?.cancel();
  return opened.headers.get("mcp-session-id")!;
}

/** Opens the event stream (GET) of session `sessionId` on `endpoint`; the answer's body is the stream. */
export function openEventStream(
  table: SessionTable,
  endpoint: Endpoint,
  sessionId: string,
): Promise<Response> {
  const request = new Request(`http://127.0.0.1:1${endpoint.path}`, {
    method: "GET",
    headers: {
      accept: "text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": PROTOCOL_VERSION,
    },
  });
  return table.handle(request, endpoint, undefined);
}
