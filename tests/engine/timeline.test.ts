import assert from "node:assert/strict";
import type { Engine } from "../../src/engine/engine.ts";
import { openEngine } from "./fixtures.ts";
import { tempProject } from "../support/service.ts";
import { REVIEW_ANSWER, reviewManifest, workflowFiles } from "../support/workflows.ts";

/** Asserts that every timeline entry of the Run names the stage and step it happened at. */
function assertPlaced(engine: Engine, runId: string): string[] {
  const events = engine.getRunTimeline(runId);
  for (const event of events) {
    assert.equal(typeof event.stageName, "string", `${event.type} has no stageName`);
    assert.equal(typeof event.stepName, "string", `${event.type} has no stepName`);
  }
  return events.map((event) => event.type);
}

Deno.test("every timeline event carries its stage and step: answers, cancellation and restart interruption", () => {
  const dir = Deno.makeTempDirSync();
  const databasePath = `${dir}/.weft/weft.db`;
  const first = openEngine({ projectDir: dir, databasePath });
  const answered = first.flow({ flowName: "review", intent: "answered", source: "cli" });
  first.answerAsk({
    runId: answered.runId,
    actionId: answered.pendingAction!.id,
    answer: REVIEW_ANSWER,
    source: "cli",
  });
  const cancelled = first.flow({ flowName: "review", intent: "cancelled", source: "cli" });
  first.cancelRun(cancelled.runId, "studio");
  const agent = first.flow({ flowName: "intent", intent: "interrupted", source: "agent_ide" });
  first.close();

  const second = openEngine({ projectDir: dir, databasePath });
  assert.ok(assertPlaced(second, answered.runId).includes("action_answered"));
  const cancelEvents = second.getRunTimeline(cancelled.runId);
  assert.deepEqual(cancelEvents.at(-1), {
    seq: cancelEvents.length,
    at: cancelEvents.at(-1)!.at,
    type: "run_cancelled",
    stageName: cancelled.cursor.stageName,
    stepName: cancelled.cursor.stepName,
    source: "studio",
  });
  assertPlaced(second, cancelled.runId);
  const interrupted = second.getRunTimeline(agent.runId).at(-1)!;
  assert.equal(interrupted.type, "run_interrupted");
  assert.equal(interrupted.callId, agent.pendingAgentCall!.id);
  assert.equal(interrupted.stageName, agent.cursor.stageName);
  assert.equal(interrupted.stepName, agent.cursor.stepName);
  assertPlaced(second, agent.runId);
  second.close();
});

Deno.test("a Run can be cancelled once, even after its workflow's files broke", async () => {
  const manifest = reviewManifest({ name: "local" });
  const dir = await tempProject(workflowFiles(manifest));
  const engine = openEngine({ projectDir: dir });
  const run = engine.flow({ flowName: "local", intent: "x", source: "cli" });
  Deno.writeTextFileSync(`${dir}/workflows/local/workflow.json`, "{ not json");
  assert.equal(engine.listWorkflows("cli").find((view) => view.name === "local")?.available, false);
  assert.equal(engine.cancelRun(run.runId, "cli").status, "cancelled");
  assert.throws(() => engine.cancelRun(run.runId, "cli"), { code: "CONFLICT" });
  engine.close();
});
