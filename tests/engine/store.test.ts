import assert from "node:assert/strict";
import { WeftError } from "../../src/errors.ts";
import { Database } from "../../src/store/database.ts";
import { openEngine, openEngineOnDisk } from "./support.ts";
import { tempProject } from "../support/service.ts";
import { REVIEW_ANSWER } from "../support/workflows.ts";
import { seedOddEvenArtifacts } from "../support/artifacts.ts";

Deno.test("restart: human waits keep waiting, agent calls become RUN_INTERRUPTED, nothing committed is lost", async () => {
  const dir = await tempProject();
  try {
    const databasePath = `${dir}/.weft/weft.db`;
    const first = await openEngineOnDisk({ projectDir: dir, databasePath });
    assert.equal((await first.stats()).storage.journalMode, "wal");
    const done = await first.startRun({
      flowName: "review",
      intent: "done",
      source: "cli",
      agentExecutor: "service",
    });
    const confirm = await first.answerAsk({
      runId: done.runId,
      actionId: done.pendingAction!.id,
      answer: REVIEW_ANSWER,
      source: "cli",
    });
    await first.answerAsk({
      runId: done.runId,
      actionId: confirm.pendingAction!.id,
      answer: { isConfirmed: true },
      source: "cli",
    });
    const human = await first.startRun({
      flowName: "review",
      intent: "human",
      source: "cli",
      agentExecutor: "service",
    });
    const agent = await first.startRun({
      flowName: "intent",
      intent: "agent",
      source: "agent_ide",
      agentExecutor: "mcp_client",
    });
    const claimed = await first.startRun({
      flowName: "intent",
      intent: "claimed",
      source: "agent_ide",
      agentExecutor: "mcp_client",
    });
    await first.claimAgentCall({
      runId: claimed.runId,
      callId: claimed.pendingAgentCall!.id,
      claimant: "mcp_client",
    });
    first.close();

    const second = await openEngineOnDisk({ projectDir: dir, databasePath });
    assert.equal((await second.getRun(human.runId)).status, "waiting");
    for (const runId of [agent.runId, claimed.runId]) {
      const run = await second.getRun(runId);
      assert.equal(run.status, "failed");
      assert.equal(run.lastError?.code, "RUN_INTERRUPTED");
      assert.equal(run.pendingAgentCall, undefined);
    }
    assert.equal((await second.getRun(done.runId)).status, "completed");
    assert.equal((await second.getArtifact({ flowName: "review", stageName: "collect" }))?.revision, 1);
    assert.equal((await second.listRuns({})).runs.length, 4);
    const next = await second.answerAsk({
      runId: human.runId,
      actionId: human.pendingAction!.id,
      answer: REVIEW_ANSWER,
      source: "studio",
    });
    assert.equal(
      (await second.answerAsk({
        runId: human.runId,
        actionId: next.pendingAction!.id,
        answer: { isConfirmed: true },
        source: "cli",
      })).status,
      "completed",
    );
    assert.equal((await second.getArtifact({ flowName: "review", stageName: "collect" }))?.revision, 2);
    second.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("artifacts page by keyset across 500 entries; a cursor is bound to its filters", async () => {
  const db = Database.open(":memory:");
  const store = await seedOddEvenArtifacts(db, 500);
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await store.list({ limit: 200, cursor });
    page.artifacts.forEach((artifact) => {
      assert.equal(artifact.data, undefined);
      seen.add(artifact.artifactId);
    });
    cursor = page.nextCursor;
  } while (cursor);
  assert.equal(seen.size, 500);
  const odd = await store.list({ flowName: "odd", limit: 100 });
  assert.equal(odd.artifacts.length, 100);
  assert.ok(odd.artifacts.every((artifact) => artifact.flowName === "odd"));
  assert.equal(
    (await store.list({ flowName: "odd", cursor: odd.nextCursor, limit: 200 })).artifacts.length,
    150,
  );
  for (
    const q of [{ cursor: odd.nextCursor }, { flowName: "even", cursor: odd.nextCursor }, {
      cursor: "garbage",
    }]
  ) {
    await assert.rejects(
      async () => await store.list(q),
      (e) => e instanceof WeftError && e.code === "INVALID_REQUEST",
    );
  }
  for (const limit of [0, 201, 1.5]) {
    await assert.rejects(
      async () => await store.list({ limit }),
      (e) => e instanceof WeftError && e.code === "INVALID_REQUEST",
    );
  }
  db.close();
});

Deno.test("runs list newest first with filters and cursors", async () => {
  const engine = await openEngine();
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push(
      (await engine.startRun({
        flowName: "review",
        intent: `r${i}`,
        source: "cli",
        agentExecutor: "service",
      })).runId,
    );
  }
  await engine.cancelRun(ids[0], "cli");
  const page = await engine.listRuns({ limit: 3 });
  assert.deepEqual(page.runs.map((run) => run.runId), ids.slice(2).reverse());
  assert.deepEqual(
    (await engine.listRuns({ cursor: page.nextCursor, limit: 3 })).runs.map((run) => run.runId),
    [
      ids[1],
      ids[0],
    ],
  );
  assert.deepEqual((await engine.listRuns({ status: "cancelled" })).runs.map((run) => run.runId), [ids[0]]);
  await assert.rejects(
    async () => await engine.listRuns({ status: "waiting", cursor: page.nextCursor }),
    /other filters/,
  );
  await engine.close();
});
