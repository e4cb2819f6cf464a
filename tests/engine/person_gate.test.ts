/**
 * The person's gate at the engine: a step that only the person answers refuses an answer the IDE's agent
 * relays (nothing consumed, the Run keeps waiting), takes one from the IDE's form, the terminal or Studio,
 * and every answer keeps the channel it came through; an option is recorded by its id whether its id or its
 * label was sent; the IDE's endpoints cancel only the Runs started there.
 */
import assert from "node:assert/strict";
import { WeftError } from "../../src/errors.ts";
import type { Engine } from "../../src/engine/engine.ts";
import type { RunView } from "../../src/engine/views.ts";
import { confirmedPlan, implement, startDeliver, statuses, verify } from "../support/deliver.ts";
import { MemoryProject } from "../support/memory_project.ts";
import { openEngine } from "./support.ts";

const SKIP_LABEL = "Skip this task (the tasks that depend on it are blocked)";

async function refused(promise: Promise<unknown>): Promise<WeftError> {
  const error = await promise.then(() => undefined, (error) => error);
  assert.ok(error instanceof WeftError, `expected a refusal, got ${String(error)}`);
  return error;
}

function relay(engine: Engine, run: RunView, answer: unknown) {
  return engine.answerAsk({ runId: run.runId, actionId: run.pendingAction!.id, answer, source: "agent_ide" });
}

/** A deliver Run at its first task's review, its verify passed. */
async function atReview(engine: Engine): Promise<RunView> {
  const intent = await confirmedPlan(engine);
  const run = await startDeliver(engine, intent.runId);
  return await verify(engine, (await implement(engine, run)).run, 0);
}

/** A deliver Run at its first task's retry/skip/stop decision, its verify failed every attempt. */
async function atDecision(engine: Engine): Promise<RunView> {
  const intent = await confirmedPlan(engine);
  let run = await startDeliver(engine, intent.runId);
  for (let attempt = 1; attempt <= 3; attempt++) {
    run = await verify(engine, (await implement(engine, run)).run, 1);
  }
  assert.equal(run.pendingAction?.kind, "user_ask_questions");
  return run;
}

Deno.test("person's gate: the IDE's agent cannot confirm a deliver task; the person's form can, and the task says so", async () => {
  const engine = await openEngine({ project: new MemoryProject({ "README.md": "# demo\n" }) });
  try {
    const run = await atReview(engine);
    assert.equal(run.pendingAction?.kind, "user_ask_confirmation");
    assert.equal(run.pendingAction?.answerFrom, "person", "the action says only the person answers it");
    const error = await refused(relay(engine, run, { isConfirmed: true }));
    assert.equal(error.code, "NOT_ALLOWED");
    assert.equal(error.retryable, false);
    assert.match(error.message, new RegExp(`weft attach ${run.runId}`));
    assert.match(error.message, /Studio/);
    const still = await engine.getRun(run.runId);
    assert.equal(still.status, "waiting");
    assert.equal(still.pendingAction?.id, run.pendingAction!.id, "nothing was consumed");
    assert.equal(still.list?.items[0].status, "running");

    const confirmed = await engine.answerAsk({
      runId: run.runId,
      actionId: run.pendingAction!.id,
      answer: { isConfirmed: true },
      source: "agent_ide",
      nativeForm: true,
    });
    assert.equal(confirmed.list?.items[0].status, "done");
    assert.deepEqual(confirmed.list?.items[0].decidedBy, { channel: "form" });
    const answered = (await engine.getRunTimeline(run.runId)).filter((event) =>
      event.type === "action_answered"
    );
    assert.deepEqual(answered.at(-1)?.channel, "form");
  } finally {
    await engine.close();
  }
});

Deno.test("person's gate: the retry/skip/stop decision is the person's, and a label routes as its option's id", async () => {
  const engine = await openEngine();
  try {
    const run = await atDecision(engine);
    assert.equal(run.pendingAction?.answerFrom, "person");
    const bySkip = [{ questionId: "decision", isSkipped: false, answer: "skip" }];
    assert.equal((await refused(relay(engine, run, bySkip))).code, "NOT_ALLOWED");
    assert.equal((await engine.getRun(run.runId)).pendingAction?.id, run.pendingAction!.id);

    // The terminal sends the option's label, as `weft attach` shows it.
    const skipped = await engine.answerAsk({
      runId: run.runId,
      actionId: run.pendingAction!.id,
      answer: [{ questionId: "decision", isSkipped: false, answer: SKIP_LABEL }],
      source: "cli",
    });
    assert.equal(skipped.status, "waiting", "the delivery goes on with the next task");
    assert.deepEqual(statuses(skipped), { T1: "skipped", T2: "running", T3: "blocked" });
    assert.deepEqual(skipped.list?.items.find((item) => item.id === "T1")?.decidedBy, {
      channel: "terminal",
    });
    const timeline = await engine.getRunTimeline(run.runId);
    const answered = timeline.findLast((event) => event.type === "action_answered");
    assert.deepEqual(answered?.answer, [{
      questionId: "decision",
      isSkipped: false,
      answer: "skip",
      label: SKIP_LABEL,
    }]);
    assert.equal(answered?.channel, "terminal");
    const checks = timeline.filter((event) =>
      event.type === "check_evaluated" && event.stepName === "skip_chosen"
    );
    assert.equal(checks.at(-1)?.outcome, "valid");
  } finally {
    await engine.close();
  }
});

Deno.test("person's gate: intent's confirmations are the person's; its clarifying questions may be relayed", async () => {
  const engine = await openEngine();
  try {
    let run = await engine.startRun({
      flowName: "intent",
      intent: "something",
      source: "agent_ide",
      agentExecutor: "mcp_client",
    });
    const callId = run.pendingAgentCall!.id;
    await engine.claimAgentCall({ runId: run.runId, callId, claimant: "mcp_client" });
    const question = { id: "scope", question: "Which scope?", options: [{ id: "all", label: "All of it" }] };
    await engine.runAgentTool({
      runId: run.runId,
      callId,
      toolId: "submit_questions",
      input: { value: [question] },
    });
    run = await engine.completeAgentCall({
      runId: run.runId,
      callId,
      result: { outcome: "clarification_required" },
    });
    assert.equal(run.pendingAction?.answerFrom, undefined, "questions keep the relay");
    run = await relay(engine, run, [{ questionId: "scope", isSkipped: false, answer: "All of it" }]);
    const answered = (await engine.getRunTimeline(run.runId)).findLast((event) =>
      event.type === "action_answered"
    );
    assert.equal(answered?.channel, "relayed");
    assert.deepEqual(answered?.answer, [{
      questionId: "scope",
      isSkipped: false,
      answer: "all",
      label: "All of it",
    }]);
  } finally {
    await engine.close();
  }
});

Deno.test("person's gate: the IDE's endpoints cancel only the Runs started there", async () => {
  const engine = await openEngine();
  try {
    for (const source of ["cli", "studio"] as const) {
      const run = await engine.startRun({
        flowName: "review",
        intent: "x",
        source,
        agentExecutor: "service",
      });
      const error = await refused(engine.cancelRun(run.runId, "agent_ide"));
      assert.equal(error.code, "NOT_ALLOWED");
      assert.match(error.message, new RegExp(`weft cancel ${run.runId}`));
      assert.notEqual((await engine.getRun(run.runId)).status, "cancelled");
      assert.equal((await engine.cancelRun(run.runId, source)).status, "cancelled");
    }
    const own = await engine.startRun({
      flowName: "review",
      intent: "x",
      source: "agent_ide",
      agentExecutor: "mcp_client",
    });
    assert.equal((await engine.cancelRun(own.runId, "agent_ide")).status, "cancelled");
  } finally {
    await engine.close();
  }
});
