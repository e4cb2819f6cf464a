/**
 * Idle expiry of the session table, on a clock the test controls (no waiting on real time).
 */

import assert from "node:assert/strict";
import { SessionTable } from "../../src/http/sessions.ts";
import { Server } from "../../src/mcp/sdk.ts";
import { ENDPOINTS } from "../../src/mcp/endpoints.ts";
import { Logger } from "../../src/lib/logger.ts";
import { initializeRequest, mcpHeaders, PROTOCOL_VERSION } from "../support/jsonrpc.ts";

const initialize = initializeRequest("t");

function initRequest(): Request {
  return new Request("http://127.0.0.1:1/mcp", {
    method: "POST",
    headers: mcpHeaders(undefined),
    body: JSON.stringify(initialize),
  });
}

/** A table of up to 10 sessions that go idle after 1000 ms of `clock`. */
function tableOn(clock: () => number): SessionTable {
  return new SessionTable(
    { maxSessions: 10, idleMs: 1000 },
    () => ({ server: new Server({ name: "t", version: "0" }, { capabilities: { tools: {} } }) }),
    Logger.silent(),
    clock,
  );
}

Deno.test("sessions idle past the limit are closed by a sweep; active ones stay", async () => {
  let now = 0;
  const table = tableOn(() => now);
  const endpoint = ENDPOINTS[0];
  const a = await table.handle(initRequest(), endpoint, initialize);
  const b = await table.handle(initRequest(), endpoint, initialize);
  await a.body?.cancel();
  await b.body?.cancel();
  assert.equal(table.size, 2);

  now = 900;
  const touch = new Request("http://127.0.0.1:1/mcp", {
    method: "POST",
    headers: mcpHeaders(undefined, { "mcp-session-id": b.headers.get("mcp-session-id")! }),
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
  });
  const pinged = await table.handle(touch, endpoint, { jsonrpc: "2.0", id: 2, method: "ping" });
  await pinged.body?.cancel();

  now = 1500;
  assert.equal(await table.sweep(), 1);
  assert.equal(table.size, 1);
  await table.closeAll();
  assert.equal(table.size, 0);
});

Deno.test("a session with a response still streaming is not idle, however long it lasts", async () => {
  let now = 0;
  const table = tableOn(() => now);
  const endpoint = ENDPOINTS[0];
  const opened = await table.handle(initRequest(), endpoint, initialize);
  await opened.body?.cancel();
  const stream = await table.handle(
    new Request("http://127.0.0.1:1/mcp", {
      method: "GET",
      headers: {
        accept: "text/event-stream",
        "mcp-session-id": opened.headers.get("mcp-session-id")!,
        "mcp-protocol-version": PROTOCOL_VERSION,
      },
    }),
    endpoint,
    undefined,
  );
  assert.equal(stream.status, 200);

  now = 10 * 60 * 60 * 1000;
  assert.equal(await table.sweep(), 0, "an open stream keeps its session");
  await stream.body?.cancel();
  now += 1001;
  assert.equal(await table.sweep(), 1);
  await table.closeAll();
});
