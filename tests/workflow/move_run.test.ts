/**
 * Moving a waiting Run to the current version of its workflow: only on the internal endpoints, only when it
 * fits, refused with exactly what does not fit otherwise, and recorded on the Run's timeline.
 */
import assert from "node:assert/strict";
import type { RunEventView, RunView, WorkflowView } from "../../src/engine/views.ts";
import type { Client } from "../support/sdk_test_client.ts";
import { call, callError, closeClient, mcpClient, serve, tempProject } from "../support/service.ts";
import { humanFlow, REVIEW_ANSWER, workflowFiles } from "../support/workflows.ts";
import type { Json } from "../support/json.ts";

type RunResult = { run: RunView };

function manifest(edit: (stage: Json) => void = () => {}): Json {
  const value = structuredClone(humanFlow({ name: "movable", title: "Movable", description: "move test" }));
  edit(value.stages.collect);
  return value;
}

async function currentVersion(client: Client): Promise<string> {
  const { workflows } = await call<{ workflows: WorkflowView[] }>(client, "list_workflows");
  return workflows.find((w) => w.name === "movable")!.version!;
}

Deno.test("a waiting Run moves to the current version when it fits, and is refused with the reason when not", async () => {
  const dir = await tempProject(workflowFiles(manifest()));
  const write = (value: Json) =>
    Deno.writeTextFile(`${dir}/workflows/movable/workflow.json`, JSON.stringify(value));
  const served = await serve(dir);
  const cli = await mcpClient(served, "/internal/mcp");
  const studio = await mcpClient(served, "/internal/mcp/studio");
  const ide = await mcpClient(served, "/mcp");
  try {
    for (const [client, offered] of [[cli, true], [studio, true], [ide, false]] as const) {
      const { tools } = await client.listTools();
      assert.equal(tools.some((tool) => tool.name === "move_run"), offered);
    }
    let { run } = await call<RunResult>(cli, "flow", { flowName: "movable", intent: "move me" });
    const original = run.version;

    // Nothing to move to yet: moving is a no-op.
    assert.equal((await call<RunResult>(cli, "move_run", { runId: run.runId })).run.version, original);

    // An edit the waiting Run fits: a stricter check rule and a new optional state field.
    await write(manifest((stage) => {
      stage.steps.check.rules[0].schema.minLength = 5;
      stage.state.schema.properties.owner = { type: "string" };
    }));
    const fitting = await currentVersion(cli);
    assert.notEqual(fitting, original);
    ({ run } = await call<RunResult>(studio, "move_run", { runId: run.runId }));
    assert.equal(run.version, fitting);
    assert.equal(run.status, "waiting");
    const { timeline } = await call<{ timeline: RunEventView[] }>(cli, "get_run", {
      runId: run.runId,
      timeline: true,
    });
    const moved = timeline.find((event) => event.type === "run_moved")!;
    assert.deepEqual(
      { from: moved.fromVersion, to: moved.toVersion, source: moved.source, step: moved.stepName },
      { from: original, to: fitting, source: "studio", step: "ask" },
    );

    // Edits it does not fit: each refusal says what does not fit, and the Run stays as it was.
    await write(manifest((stage) => {
      stage.steps.ask.questions[0].id = "headline";
      stage.state.schema.required = ["owner"];
      stage.state.initial = { owner: "someone" };
    }));
    let refused = await callError(cli, "move_run", { runId: run.runId });
    assert.equal(refused.code, "CONFLICT");
    assert.match(refused.message, /stage state does not match the new state schema of "collect"/);
    assert.match(refused.message, /owner/);
    assert.match(
      refused.message,
      /questions it waits on \(title, color, notes\) differ .*\(headline, color, notes\)/,
    );

    await write(manifest((stage) => {
      stage.steps.questions = stage.steps.ask;
      delete stage.steps.ask;
      stage.entryStep = "questions";
      stage.steps.check.routes.invalid = "questions";
      stage.steps.confirm.routes.revise = "questions";
    }));
    refused = await callError(cli, "move_run", { runId: run.runId });
    assert.match(refused.message, /at step collect\/ask, which the new version does not have/);

    await Deno.remove(`${dir}/workflows/movable`, { recursive: true });
    refused = await callError(cli, "move_run", { runId: run.runId });
    assert.match(refused.message, /workflow "movable" no longer exists/);

    // Still under the version it moved to: the stricter rule applies (a short title loops back to the ask).
    assert.equal((await call<RunResult>(cli, "get_run", { runId: run.runId })).run.version, fitting);
    const short = REVIEW_ANSWER.map((entry) =>
      entry.questionId === "title" ? { ...entry, answer: "Abc" } : entry
    );
    ({ run } = await call<RunResult>(cli, "answer_ask", {
      runId: run.runId,
      actionId: run.pendingAction!.id,
      answer: short,
    }));
    assert.equal(run.pendingAction?.kind, "user_ask_questions", "the moved Run checks with minLength 5");
    for (const answer of [REVIEW_ANSWER, { isConfirmed: true }]) {
      ({ run } = await call<RunResult>(cli, "answer_ask", {
        runId: run.runId,
        actionId: run.pendingAction!.id,
        answer,
      }));
    }
    assert.equal(run.status, "completed");
    refused = await callError(cli, "move_run", { runId: run.runId });
    assert.match(refused.message, /is completed; only a waiting Run can move/);
  } finally {
    await Promise.all([closeClient(cli), closeClient(studio), closeClient(ide)]);
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
