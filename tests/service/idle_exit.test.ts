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
import { Server } from "../../src/mcp/sdk.ts";
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
