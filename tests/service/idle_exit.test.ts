/**
 * The idle exit's rules on a clock the test controls: what counts as work in progress (open sessions of the
 * session table, and any work that registers), and when the bound has passed. The real service's exit is in
 * idle_exit_service.test.ts.
 */
import assert from "node:assert/strict";
import { WorkInProgress } from "../../src/lib/work_in_progress.ts";
import { IdleExit } from "../../src/service/idle_exit.ts";
import { SessionTable } from "../../src/http/sessions.ts";
import { endpointFor } from "../../src/mcp/endpoints.ts";
import { InMemoryServerEventBus, Server } from "../../src/mcp/sdk.ts";
import { ModernRequests } from "../../src/http/modern_requests.ts";
import { MODERN_REVISION, ModernClient, ModernTransport } from "../support/modern_client.ts";
import { eventually } from "../support/deadline.ts";
import { Logger } from "../../src/lib/logger.ts";
import { openEventStream, openSession } from "../support/session_table.ts";
import { mcpHeaders } from "../support/jsonrpc.ts";

Deno.test("idle exit: the bound counts from the end of the last work, and never passes while work goes on", async () => {
  let now = 0;
  const work = new WorkInProgress(() => now);
  const watch = new IdleExit(work, 2000);
  let exited = false;
  void watch.idle.then(() => exited = true);

  const turn = work.begin();
  const session = work.begin();
  now = 10_000;
  assert.equal(watch.check(), false, "work in progress keeps the service, however long it takes");
  turn();
  turn();
  assert.equal(work.count, 1, "ending the same work twice counts once");
  now = 20_000;
  assert.equal(watch.check(), false, "one open session is still work in progress");
  session();
  now = 21_999;
  assert.equal(watch.check(), false, "the bound counts from when the last work ended");
  now = 22_000;
  assert.equal(watch.check(), true);
  await watch.idle;
  assert.ok(exited);
});

Deno.test("idle exit: each open session of the table counts as work until it closes or expires", async () => {
  let now = 0;
  const work = new WorkInProgress(() => now);
  const table = new SessionTable(
    { maxSessions: 4, idleMs: 1000 },
    () => ({ server: new Server({ name: "t", version: "0" }, { capabilities: { tools: {} } }) }),
    Logger.silent(),
    { now: () => now, work },
  );
  const endpoint = endpointFor("agent_ide", { codex: false });
  const closed = await openSession(table, endpoint);
  const streaming = await openSession(table, endpoint);
  assert.equal(work.count, 2);

  const deleted = await table.handle(
    new Request("http://127.0.0.1:1/mcp", {
      method: "DELETE",
      headers: mcpHeaders(undefined, { "mcp-session-id": closed }),
    }),
    endpoint,
    undefined,
  );
  await deleted.body?.cancel();
  assert.equal(work.count, 1, "a session ended with DELETE is no longer work");

  // A listening stream keeps its session open past the session idle limit, and so the service.
  const stream = await openEventStream(table, endpoint, streaming);
  now = 5000;
  assert.equal(await table.sweep(), 0);
  assert.equal(work.count, 1, "a session whose stream listens is work in progress");
  await stream.body?.cancel();
  now = 10_000;
  assert.equal(await table.sweep(), 1);
  assert.equal(work.count, 0, "an expired session is no longer work: a client that vanished holds nothing");
  assert.equal(work.idleFor(), 0, "the idle time starts when the last session went");
  now = 12_000;
  assert.equal(work.idleFor(), 2000);
  await table.closeAll();
});

Deno.test("idle exit: a 2026-07-28 request is work until its answer ends, so an open listen stream keeps the service", async () => {
  const work = new WorkInProgress();
  const modern = new ModernRequests(
    () =>
      new Server({ name: "t", version: "0" }, {
        capabilities: { resources: { subscribe: true, listChanged: true } },
      }),
    { bus: new InMemoryServerEventBus(), maxSubscriptions: 4, keepAliveMs: 0, logger: Logger.silent(), work },
  );
  const endpoint = endpointFor("agent_ide", { codex: false });
  // Over real HTTP: a client that closes its stream closes its connection, which is what ends the answer.
  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) =>
      await modern.handle(request, endpoint, request.method === "POST" ? await request.json() : undefined),
  );
  const client = new ModernClient(
    { name: "t", version: "0" },
    { versionNegotiation: { mode: { pin: MODERN_REVISION } } },
  );
  await client.connect(new ModernTransport(new URL(`http://127.0.0.1:${http.addr.port}/mcp`)));
  try {
    assert.equal(work.count, 0, "an answered request is no longer work");
    const listening = await client.listen({ resourceSubscriptions: ["weft://runs"] });
    assert.equal(work.count, 1, "an open listen stream is work in progress");
    await listening.close();
    await eventually("the closed listen stream to end its work", () => work.count === 0 || undefined);
  } finally {
    await client.close();
    await modern.close();
    await http.shutdown();
  }
});
