/**
 * `getRun` answers from what it last read until the store is written: a Run read again and again (an agent
 * waiting on a person) costs no store read, and every write, to any Run, is seen by the next read.
 */

import assert from "node:assert/strict";
import { openEngine } from "./support.ts";
import { REVIEW_ANSWER } from "../support/workflows.ts";

Deno.test("get run: a Run read again after a write shows the write", async () => {
  const engine = await openEngine();
  try {
    const run = await engine.startRun({
      flowName: "review",
      intent: "read",
      source: "cli",
      agentExecutor: "service",
    });
    const waiting = await engine.getRun(run.runId);
    assert.deepEqual(await engine.getRun(run.runId), waiting, "nothing written: the same answer");
    const answered = await engine.answerAsk({
      runId: run.runId,
      actionId: waiting.pendingAction!.id,
      answer: REVIEW_ANSWER,
      source: "cli",
    });
    assert.deepEqual(await engine.getRun(run.runId), answered, "the answer is seen");
    assert.notDeepEqual(answered, waiting);
    await engine.cancelRun(run.runId, "studio");
    assert.equal((await engine.getRun(run.runId)).status, "cancelled", "and the cancellation");
    await assert.rejects(engine.getRun("run_unknown"), /no Run with id/);
  } finally {
    await engine.close();
  }
});

Deno.test("get run: the view readers share cannot be changed by one of them", async () => {
  const engine = await openEngine();
  try {
    const run = await engine.startRun({
      flowName: "review",
      intent: "shared",
      source: "cli",
      agentExecutor: "service",
    });
    const view = await engine.getRun(run.runId);
    assert.throws(() => {
      (view as { status: string }).status = "completed";
    }, TypeError);
    assert.throws(() => {
      (view.cursor as { stageName: string }).stageName = "elsewhere";
    }, TypeError);
    assert.equal((await engine.getRun(run.runId)).status, "waiting");
  } finally {
    await engine.close();
  }
});
