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

const LIST_CHANGED = "notifications/resources/list_changed";

Deno.test("reconnecting with Last-Event-ID delivers the missed notifications exactly once, however many answers came between; past the log, everything is re-announced", async () => {
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
    const e2 = await second.until("r2's notification", (event) => event.message.params?.uri === uris[2]);
    await call(cli, "cancel_run", { runId: runs[3] });
    await second.until("r3's notification", (event) => event.message.params?.uri === uris[3]);
    assert.deepEqual(second.updated, [uris[1], uris[2], uris[3]], "r1 replayed, r2 held, r3 live: each once");
    await second.cancel();

    // Answers the client has read whole leave nothing in the log, so hundreds of calls later the broken
    // stream still resumes exactly: r3 replayed, then a new change, and no re-announcement.
    for (let i = 0; i <= EVENT_LOG_LIMITS.events; i++) await post("ping", {});
    const third = new SseEvents(
      await openStream(served, session, e2.id),
      "the stream resumed after many calls",
    );
    const marker =
      (await call<{ run: RunView }>(cli, "flow", { flowName: "review", intent: "marker" })).run.runId;
    await post("resources/subscribe", { uri: `weft://runs/${marker}` });
    await call(cli, "cancel_run", { runId: marker });
    await third.until(
      "the marker's notification",
      (event) => event.message.params?.uri?.endsWith(marker) ?? false,
    );
    assert.deepEqual(third.updated, [uris[3], `weft://runs/${marker}`], "exactly what was missed, then live");
    await third.cancel();

    // More events on the stream itself than the log keeps: a resume from before them cannot be exact.
    await post("resources/list", {});
    const busy = new SseEvents(await openStream(served, session), "a stream taking many list changes");
    for (let i = 0; i < EVENT_LOG_LIMITS.events; i++) {
      const from = busy.events.length;
      await call(cli, "flow", { flowName: "review", intent: `filler ${i}` });
      await busy.until(`list change ${i}`, (event) => event.message.method === LIST_CHANGED, from);
    }
    await busy.cancel();
    const late = new SseEvents(await openStream(served, session, e1.id), "the stream resumed too late");
    for (const uri of uris) {
      await late.until(`a re-read of ${uri}`, (event) => event.message.params?.uri === uri);
    }
    await late.cancel();
  } finally {
    await closeClient(cli);
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
