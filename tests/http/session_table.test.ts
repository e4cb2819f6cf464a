/**
 * Idle expiry of the session table, on a clock the test controls (no waiting on real time).
 */

import assert from "node:assert/strict";
import { ENDPOINTS } from "../../src/mcp/endpoints.ts";
import { mcpHeaders } from "../support/jsonrpc.ts";
import { INITIALIZE, initRequest, openEventStream, openSession, tableOn } from "../support/session_table.ts";
import { within } from "../support/deadline.ts";

Deno.test("sessions idle past the limit are closed by a sweep; active ones stay", async () => {
  let now = 0;
  const table = tableOn(() => now);
  const endpoint = ENDPOINTS[0];
  const a = await table.handle(initRequest(), endpoint, INITIALIZE);
  const b = await table.handle(initRequest(), endpoint, INITIALIZE);
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
  const stream = await openEventStream(table, endpoint, await openSession(table, endpoint));
  assert.equal(stream.status, 200);

  now = 10 * 60 * 60 * 1000;
  assert.equal(await table.sweep(), 0, "an open stream keeps its session");
  await stream.body?.cancel();
  now += 1001;
  assert.equal(await table.sweep(), 1);
  await table.closeAll();
});

Deno.test("each token class has its own bound; a full internal class makes room, the external one says 503", async () => {
  let now = 0;
  const table = tableOn(() => now, { maxSessions: 2 });
  const [ide, codex, cli] = ["/mcp", "/mcp/codex", "/internal/mcp"].map((path) =>
    ENDPOINTS.find((endpoint) => endpoint.path === path)!
  );
  const open = async (endpoint: typeof ide) => {
    now++;
    const response = await table.handle(initRequest(endpoint.path), endpoint, INITIALIZE);
    await response.body?.cancel();
    return response;
  };
  assert.equal((await open(ide)).status, 200);
  assert.equal((await open(codex)).status, 200);
  const refused = await open(ide);
  assert.equal(refused.status, 503);
  // The IDE's token alone cannot keep the CLI out: the internal class has its own room.
  const first = (await open(cli)).headers.get("mcp-session-id")!;
  assert.ok((await open(cli)).headers.get("mcp-session-id"));
  const third = await open(cli);
  assert.equal(third.status, 200, "a full internal class closes its least recently used session");
  assert.equal(table.sizeOf("internal"), 2);
  assert.equal(table.sizeOf("external"), 2);
  const gone = await table.handle(
    new Request("http://127.0.0.1:1/internal/mcp", {
      method: "POST",
      headers: mcpHeaders(undefined, { "mcp-session-id": first }),
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
    }),
    cli,
    { jsonrpc: "2.0", id: 2, method: "ping" },
  );
  assert.equal(gone.status, 404);
  await table.closeAll();
});

Deno.test("a full internal class whose sessions all stream makes room by closing the oldest stream's session", async () => {
  let now = 0;
  const table = tableOn(() => now, { maxSessions: 2 });
  const cli = ENDPOINTS.find((endpoint) => endpoint.path === "/internal/mcp")!;
  const streams: Response[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      now++;
      const stream = await openEventStream(table, cli, await openSession(table, cli));
      assert.equal(stream.status, 200);
      streams.push(stream);
    }
    assert.equal(table.streams, 2);
    now++;
    const third = await table.handle(initRequest(cli.path), cli, INITIALIZE);
    await third.body?.cancel();
    assert.equal(third.status, 200, "status and stop always get in");
    assert.equal(table.sizeOf("internal"), 2);
    const reader = streams[0].body!.getReader();
    await within(
      "the oldest stream to end with its session",
      (async () => {
        while (!(await reader.read()).done) { /* a priming event may come first */ }
      })(),
    );
    reader.releaseLock();
  } finally {
    for (const stream of streams) await stream.body?.cancel().catch(() => {});
    await table.closeAll();
  }
});

Deno.test("the initialize answer leaves the event log once read whole: resuming its stream is refused like any answer's", async () => {
  const table = tableOn(() => 0);
  const endpoint = ENDPOINTS[0];
  try {
    const opened = await table.handle(initRequest(), endpoint, INITIALIZE);
    const sessionId = opened.headers.get("mcp-session-id")!;
    const text = await within("the initialize answer", opened.text());
    const firstId = /^id: ?(\S+)$/m.exec(text)?.[1];
    assert.ok(firstId, `the answer's stream has event ids: ${text}`);
    const resume = new Request("http://127.0.0.1:1/mcp", {
      method: "GET",
      headers: mcpHeaders(undefined, {
        accept: "text/event-stream",
        "mcp-session-id": sessionId,
        "last-event-id": firstId,
      }),
    });
    const resumed = await table.handle(resume, endpoint, undefined);
    await resumed.body?.cancel();
    assert.equal(resumed.status, 400);
  } finally {
    await table.closeAll();
  }
});
