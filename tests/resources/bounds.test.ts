/**
 * What subscriptions must never cost: a listener or memory left behind by closed sessions, a stalled reader
 * slowing anyone else, a resource served without the endpoint's token, or a secret inside a notification.
 */

import assert from "node:assert/strict";
import { call, closeClient, mcpClient, serve, type ServedProject, tempProject } from "../support/service.ts";
import { mcpHeaders, openRawSession } from "../support/jsonrpc.ts";
import { openStream, rawCall, SseEvents } from "../support/notifications.ts";
import { reviewManifest, workflowFiles } from "../support/workflows.ts";
import { ENDPOINTS } from "../../src/mcp/endpoints.ts";
import type { RunView } from "../../src/engine/views.ts";

type Status = { service: { counts: { changeListeners: number; sessions: { open: number } } } };

Deno.test("after 500 sessions subscribe and close, the engine's listeners and the service's memory are back to baseline", async () => {
  const dir = await tempProject(workflowFiles(reviewManifest()));
  const served = await serve(dir);
  const cli = await mcpClient(served, "/internal/mcp");
  try {
    const { run } = await call<{ run: RunView }>(cli, "flow", { flowName: "review", intent: "watched" });
    const counts = async () => (await call<Status>(cli, "status")).service.counts;
    const baseline = await counts();

    const round = async (sessions: number) => {
      const open = await Promise.all(
        Array.from({ length: sessions }, async () => {
          const session = await openRawSession(served, "/mcp");
          await rawCall(served, session, "resources/subscribe", { uri: `weft://runs/${run.runId}` });
          return { session, stream: await openStream(served, session) };
        }),
      );
      const during = await counts();
      for (const { session, stream } of open) {
        await stream.body?.cancel();
        await endSession(served, session);
      }
      return during;
    };
    // The first rounds warm the service up (heap, caches); the last ones must not grow it further.
    const during = await round(100);
    assert.equal(during.changeListeners, baseline.changeListeners + 100, "every subscribed session listens");
    await round(150);
    const warm = rss(served.pid);
    await round(125);
    await round(125);
    const after = await counts();
    assert.equal(after.changeListeners, baseline.changeListeners, "no listener outlives its session");
    assert.equal(after.sessions.open, baseline.sessions.open);
    // A coarse backstop: the heap saws up and down by ~40 MiB between collections on its own (measured), while
    // sessions that stayed reachable would keep everything they held, their event logs included.
    const grown = rss(served.pid) - warm;
    assert.ok(grown < 64 * 1024 * 1024, `RSS grew by ${(grown / 1048576).toFixed(1)} MiB over 250 sessions`);
  } finally {
    await closeClient(cli);
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a subscriber that never reads its stream does not hold up another session's calls", async () => {
  const dir = await tempProject(workflowFiles(reviewManifest()));
  const served = await serve(dir);
  const cli = await mcpClient(served, "/internal/mcp");
  try {
    const stalled = await openRawSession(served, "/mcp");
    await rawCall(served, stalled, "resources/subscribe", { uri: "weft://runs" });
    await rawCall(served, stalled, "resources/list", {});
    const unread = await openStream(served, stalled);
    for (let i = 0; i < 150; i++) {
      const { run } = await call<{ run: RunView }>(cli, "flow", { flowName: "review", intent: `run ${i}` });
      await call(cli, "cancel_run", { runId: run.runId });
    }
    // The stalled client finally reads: its session still works, and it heard that the Runs changed.
    const events = new SseEvents(unread, "the stalled stream");
    await events.until("an update of the Run list", (event) => event.message.params?.uri === "weft://runs");
    assert.ok(
      events.events.length <= 600,
      `at most one notification per change, got ${events.events.length}`,
    );
    await events.cancel();
  } finally {
    await closeClient(cli);
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("resources on every endpoint refuse the wrong token with 401", async () => {
  const dir = await tempProject();
  const served = await serve(dir);
  try {
    for (const endpoint of ENDPOINTS) {
      const session = await openRawSession(served, endpoint.path);
      const wrong = endpoint.tokenClass === "internal"
        ? served.connection.externalToken
        : served.connection.internalToken;
      for (const [method, params] of RESOURCE_REQUESTS) {
        const response = await fetch(served.url + endpoint.path, {
          method: "POST",
          headers: mcpHeaders(wrong, { "mcp-session-id": session }),
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        });
        await response.body?.cancel();
        assert.equal(response.status, 401, `${method} on ${endpoint.path}`);
      }
      const stream = await fetch(served.url + endpoint.path, {
        headers: { authorization: `Bearer ${wrong}`, accept: "text/event-stream", "mcp-session-id": session },
      });
      await stream.body?.cancel();
      assert.equal(stream.status, 401, `GET stream on ${endpoint.path}`);
    }
  } finally {
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("malformed and unknown resource URIs are JSON-RPC errors that say what is accepted", async () => {
  const dir = await tempProject(workflowFiles(reviewManifest()));
  const served = await serve(dir);
  const agent = await mcpClient(served, "/mcp");
  try {
    const cases: [string, number, RegExp][] = [
      ["https://example.com/x", -32602, /not a weft:\/\/ resource.*weft:\/\/runs/],
      ["weft://runs/../etc", -32602, /malformed/],
      ["weft://runs/a/b/c", -32602, /names no weft resource/],
      ["weft://runs/r?timeline=yes", -32602, /timeline=true/],
      [`weft://runs/${"x".repeat(5000)}`, -32602, /longer than 1024/],
      ["weft://runs/run_missing", -32602, /Resource not found: no Run with id "run_missing"/],
      ["weft://runs/run_missing/command", -32602, /Resource not found: no Run with id "run_missing"/],
      ["weft://runs/r/command?timeline=true", -32602, /names no weft resource/],
      ["weft://artifacts/review/collect", -32602, /has committed no Artifact yet/],
    ];
    for (const [uri, code, message] of cases) {
      await assert.rejects(agent.readResource({ uri }), (error: { code: number; message: string }) => {
        assert.equal(error.code, code, uri);
        assert.match(error.message, message);
        assert.ok(error.message.length < 400, "the message quotes a long URI shortened");
        return true;
      });
    }
    await assert.rejects(agent.subscribeResource({ uri: "weft://runs/run_missing" }), /no Run with id/);
    await assert.rejects(
      agent.subscribeResource({ uri: "weft://runs/run_missing/command" }),
      /no Run with id/,
    );
    await assert.rejects(
      agent.request({ method: "resources/read", params: { uri: 42 } } as never, {} as never),
      (error: { code: number }) => error.code === -32602,
    );
    const { resourceTemplates } = await agent.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((template) => template.uriTemplate), [
      "weft://runs/{runId}{?timeline}",
      "weft://runs/{runId}/command",
      "weft://runs/{runId}/tasks",
      "weft://artifacts/{flowName}/{stageName}",
    ]);
  } finally {
    await closeClient(agent);
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("notifications carry the resource URI and nothing of another endpoint: no token, path or intent", async () => {
  const dir = await tempProject(workflowFiles(reviewManifest()));
  const served = await serve(dir);
  const cli = await mcpClient(served, "/internal/mcp");
  try {
    const session = await openRawSession(served, "/mcp");
    await rawCall(served, session, "resources/list", {});
    await rawCall(served, session, "resources/subscribe", { uri: "weft://runs" });
    const response = await openStream(served, session);
    const intent = "a private intent 7f3a";
    const { run } = await call<{ run: RunView }>(cli, "flow", { flowName: "review", intent });
    await call(cli, "cancel_run", { runId: run.runId });
    const events = new SseEvents(response, "the agent's stream");
    await events.until("the list change", (event) => event.message.method?.endsWith("list_changed") === true);
    await events.until("the update", (event) => event.message.params?.uri === "weft://runs");
    const text = JSON.stringify(events.events);
    for (const secret of [served.connection.internalToken, served.connection.externalToken, dir, intent]) {
      assert.ok(!text.includes(secret), `a notification carried ${secret}`);
    }
    for (const event of events.events) {
      assert.deepEqual(Object.keys(event.message.params ?? {}).filter((key) => key !== "uri"), []);
    }
    await events.cancel();
  } finally {
    await closeClient(cli);
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

const RESOURCE_REQUESTS: [string, Record<string, unknown>][] = [
  ["resources/list", {}],
  ["resources/templates/list", {}],
  ["resources/read", { uri: "weft://runs" }],
  ["resources/subscribe", { uri: "weft://runs" }],
  ["resources/unsubscribe", { uri: "weft://runs" }],
];

async function endSession(served: ServedProject, session: string): Promise<void> {
  const response = await fetch(served.url + "/mcp", {
    method: "DELETE",
    headers: mcpHeaders(served.connection.externalToken, { "mcp-session-id": session }),
  });
  await response.body?.cancel();
  assert.equal(response.status, 200);
}

/** The resident set size of process `pid`, in bytes (Linux). */
function rss(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}
