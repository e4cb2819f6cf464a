/**
 * Resumable notification streams over raw HTTP: a client that reconnects with `Last-Event-ID` receives what
 * it missed exactly once, and a client that resumes from beyond the event log is asked to re-read.
 */

import assert from "node:assert/strict";
import { call, closeClient, mcpClient, serve, tempProject } from "../support/service.ts";
import { openRawSession } from "../support/jsonrpc.ts";
import { openStream, rawCall, SseEvents } from "../support/notifications.ts";
import { reviewManifest, workflowFiles } from "../support/workflows.ts";
import { EVENT_LOG_LIMITS } from "../../src/http/event_log.ts";
import type { RunView } from "../../src/engine/views.ts";

Deno.test("reconnecting with Last-Event-ID delivers the missed notifications exactly once; past the log, everything is re-announced", async () => {
  const dir = await tempProject(workflowFiles(reviewManifest()));
  const served = await serve(dir);
  const cli = await mcpClient(served, "/internal/mcp");
  try {
    const runs: string[] = [];
    for (let i = 0; i < 4; i++) {
      runs.push(
        (await call<{ run: RunView }>(cli, "flow", { flowName: "review", intent: `run ${i}` })).run.runId,
      );
    }
    const uris = runs.map((runId) => `weft://runs/${runId}`);
    const session = await openRawSession(served, "/mcp");
    const post = (method: string, params: Record<string, unknown>) =>
      rawCall(served, session, method, params);
    for (const uri of uris) await post("resources/subscribe", { uri });

    const first = new SseEvents(await openStream(served, session), "the first GET stream");
    await call(cli, "cancel_run", { runId: runs[0] });
    const e1 = await first.until("r0's notification", (event) => event.message.params?.uri === uris[0]);
    await call(cli, "cancel_run", { runId: runs[1] });
    await first.until("r1's notification", (event) => event.message.params?.uri === uris[1]);
    // The connection breaks; the client only saw r0 for certain. r2 changes while it is away.
    await first.cancel();
    await call(cli, "cancel_run", { runId: runs[2] });

    const second = new SseEvents(await openStream(served, session, e1.id), "the resumed GET stream");
    await second.until("r2's notification", (event) => event.message.params?.uri === uris[2]);
    await call(cli, "cancel_run", { runId: runs[3] });
    await second.until("r3's notification", (event) => event.message.params?.uri === uris[3]);
    assert.deepEqual(second.updated, [uris[1], uris[2], uris[3]], "r1 replayed, r2 held, r3 live: each once");
    await second.cancel();

    // Enough calls to push the stream's events out of the session's log.
    for (let i = 0; i <= EVENT_LOG_LIMITS.events; i++) await post("ping", {});
    const third = new SseEvents(await openStream(served, session, e1.id), "the stream resumed too late");
    for (const uri of uris) {
      await third.until(`a re-read of ${uri}`, (event) => event.message.params?.uri === uri);
    }
    await third.cancel();
  } finally {
    await closeClient(cli);
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
