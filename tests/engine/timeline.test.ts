import assert from "node:assert/strict";
import type { Engine } from "../../src/engine/engine.ts";
import { openEngine } from "./support.ts";
import { MemoryDatabase } from "../support/memory_storage.ts";
import { MemoryProject } from "../support/memory_project.ts";
import { REVIEW_ANSWER, reviewManifest, workflowFiles } from "../support/workflows.ts";

/** Asserts that every timeline entry of the Run names the stage and step it happened at. */
async function assertPlaced(engine: Engine, runId: string): Promise<string[]> {
  const events = await engine.getRunTimeline(runId);
  for (const event of events) {
    assert.equal(typeof event.stageName, "string", `${event.type} has no stageName`);
    assert.equal(typeof event.stepName, "string", `${event.type} has no stepName`);
  }
  return events.map((event) => event.type);
}

Deno.test("every timeline event carries its stage and step: answers, cancellation and restart interruption", async () => {
  // One store across both engines, as across two starts of the service.
  const database = new MemoryDatabase();
  const first = await openEngine({ database });
  const answered = await first.startRun({
    flowName: "review",
    intent: "answered",
    source: "cli",
    agentExecutor: "service",
  });
  await first.answerAsk({
    runId: answered.runId,
    actionId: answered.pendingAction!.id,
    answer: REVIEW_ANSWER,
    source: "cli",
  });
  const cancelled = await first.startRun({
    flowName: "review",
    intent: "cancelled",
    source: "cli",
    agentExecutor: "service",
  });
  await first.cancelRun(cancelled.runId, "studio");
  const agent = await first.startRun({
    flowName: "intent",
    intent: "interrupted",
    source: "agent_ide",
    agentExecutor: "mcp_client",
  });
  first.close();

  const second = await openEngine({ database });
  assert.ok((await assertPlaced(second, answered.runId)).includes("action_answered"));
  const cancelEvents = await second.getRunTimeline(cancelled.runId);
  assert.deepEqual(cancelEvents.at(-1), {
    seq: cancelEvents.length,
    at: cancelEvents.at(-1)!.at,
    type: "run_cancelled",
    stageName: cancelled.cursor.stageName,
    stepName: cancelled.cursor.stepName,
    source: "studio",
  });
  await assertPlaced(second, cancelled.runId);
  const interrupted = (await second.getRunTimeline(agent.runId)).at(-1)!;
  assert.equal(interrupted.type, "run_interrupted");
  assert.equal(interrupted.callId, agent.pendingAgentCall!.id);
  assert.equal(interrupted.stageName, agent.cursor.stageName);
  assert.equal(interrupted.stepName, agent.cursor.stepName);
  await assertPlaced(second, agent.runId);
  second.close();
});

Deno.test("a Run can be cancelled once, even after its workflow's files broke", async () => {
  const manifest = reviewManifest({ name: "local" });
  const project = new MemoryProject(workflowFiles(manifest));
  const engine = await openEngine({ project });
  const run = await engine.startRun({
    flowName: "local",
    intent: "x",
    source: "cli",
    agentExecutor: "service",
  });
  project.put("workflows/local/workflow.json", "{ not json");
  assert.equal(
    (await engine.listWorkflows("service")).find((view) => view.name === "local")?.available,
    false,
  );
  const cancelled = await engine.cancelRun(run.runId, "cli");
  assert.equal(cancelled.status, "cancelled");
  assert.deepEqual(await engine.cancelRun(run.runId, "cli"), cancelled);
  await engine.close();
});
