/**
 * Resource subscriptions end to end: an agent on /mcp subscribes to a Run, the person answers from
 * /internal/mcp, and the agent is notified on its GET stream; unsubscribing stops that; new Runs and
 * Artifacts change the list.
 */

import assert from "node:assert/strict";
import { call, closeClient, mcpClient, serve, tempProject } from "../support/service.ts";
import { REVIEW_ANSWER, reviewManifest, workflowFiles } from "../support/workflows.ts";
import { Inbox, readJson } from "../support/notifications.ts";
import type { RunView } from "../../src/engine/views.ts";
import { PROTOCOL_DOC_URI } from "../../src/mcp/protocol_doc.ts";

type RunResult = { run: RunView };

Deno.test("a subscribed agent is notified of each change a person makes elsewhere, until it unsubscribes", async () => {
  const dir = await tempProject(workflowFiles(reviewManifest()));
  const served = await serve(dir);
  const cli = await mcpClient(served, "/internal/mcp");
  const agent = await mcpClient(served, "/mcp");
  const inbox = new Inbox(agent);
  try {
    assert.deepEqual(agent.getServerCapabilities()?.resources, { subscribe: true, listChanged: true });
    const { run: first } = await call<RunResult>(cli, "flow", { flowName: "review", intent: "Name it" });
    const { run: second } = await call<RunResult>(cli, "flow", { flowName: "review", intent: "Another" });
    const firstUri = `weft://runs/${first.runId}`;
    const secondUri = `weft://runs/${second.runId}`;
    await agent.subscribeResource({ uri: firstUri });
    await agent.subscribeResource({ uri: secondUri });

    const { run } = await call<RunResult>(cli, "answer_ask", {
      runId: first.runId,
      actionId: first.pendingAction!.id,
      answer: REVIEW_ANSWER,
    });
    const at = await inbox.until(`updated ${firstUri}`);
    assert.deepEqual(await readJson(agent, firstUri), { run });

    await agent.unsubscribeResource({ uri: firstUri });
    await call(cli, "cancel_run", { runId: first.runId });
    await call(cli, "cancel_run", { runId: second.runId });
    // The second Run's notification comes after the first's change in commit order, on the same stream.
    const later = await inbox.until(`updated ${secondUri}`, at + 1);
    assert.deepEqual(
      inbox.received.slice(at + 1, later).filter((entry) => entry.includes(first.runId)),
      [],
      "no notification after unsubscribing",
    );
  } finally {
    await closeClient(agent);
    await closeClient(cli);
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a client that listed resources hears of new Runs and Artifacts; an Artifact can be awaited before it exists", async () => {
  const dir = await tempProject(workflowFiles(reviewManifest()));
  const served = await serve(dir);
  const cli = await mcpClient(served, "/internal/mcp");
  const studio = await mcpClient(served, "/internal/mcp/studio");
  const inbox = new Inbox(studio);
  try {
    const listed = await studio.listResources();
    assert.deepEqual(listed.resources.map((resource) => resource.uri), [PROTOCOL_DOC_URI, "weft://runs"]);
    const artifactUri = "weft://artifacts/review/collect";
    await studio.subscribeResource({ uri: artifactUri });
    await studio.subscribeResource({ uri: "weft://runs" });

    let { run } = await call<RunResult>(cli, "flow", { flowName: "review", intent: "Name it" });
    const created = await inbox.until("list_changed");
    await inbox.until("updated weft://runs");
    ({ run } = await call<RunResult>(cli, "answer_ask", {
      runId: run.runId,
      actionId: run.pendingAction!.id,
      answer: REVIEW_ANSWER,
    }));
    ({ run } = await call<RunResult>(cli, "answer_ask", {
      runId: run.runId,
      actionId: run.pendingAction!.id,
      answer: { isConfirmed: true },
    }));
    assert.equal(run.status, "completed");
    const committed = await inbox.until(`updated ${artifactUri}`, created + 1);
    await inbox.until("list_changed", created + 1);
    assert.ok(committed > created);
    const { artifact } = await readJson<{ artifact: { revision: number } }>(studio, artifactUri);
    assert.equal(artifact.revision, 1);
    const all = await studio.listResources();
    assert.deepEqual(all.resources.map((resource) => resource.uri), [
      PROTOCOL_DOC_URI,
      "weft://runs",
      `weft://runs/${run.runId}`,
    ]);
    const artifacts = await studio.listResources({ cursor: all.nextCursor });
    assert.deepEqual(artifacts.resources.map((resource) => resource.uri), [artifactUri]);
    assert.equal(artifacts.nextCursor, undefined);
  } finally {
    await closeClient(studio);
    await closeClient(cli);
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
