import assert from "node:assert/strict";
import { WeftError } from "../../src/errors.ts";
import { openEngine } from "./support.ts";
import type { ModelRoles } from "../../src/engine/model_roles.ts";
import { REVIEW_ANSWER, REVIEW_RECORDED, reviewManifest } from "../support/workflows.ts";

function code(error: unknown): string {
  assert.ok(error instanceof WeftError, String(error));
  return error.code;
}

Deno.test("a human-only workflow runs to completion from an internal source", async () => {
  const engine = await openEngine();
  const run = await engine.startRun({
    flowName: "review",
    intent: "name it",
    source: "cli",
    agentExecutor: "service",
  });
  assert.equal(run.status, "waiting");
  assert.equal(run.execution.agentExecutor, "service");
  assert.equal(run.pendingAction?.kind, "user_ask_questions");
  const questions = (run.pendingAction!.request as { questions: { isSkippable: boolean }[] }).questions;
  assert.equal(questions.length, 3);
  assert.equal(questions[0].isSkippable, false);

  const confirm = await engine.answerAsk({
    runId: run.runId,
    actionId: run.pendingAction!.id,
    answer: REVIEW_ANSWER,
    source: "cli",
  });
  assert.equal(confirm.pendingAction?.kind, "user_ask_confirmation");
  // The colour was sent by its label ("Red"): it is recorded by its id, with the label beside it.
  assert.deepEqual((confirm.pendingAction!.request as { context: unknown }).context, REVIEW_RECORDED);

  const revised = await engine.answerAsk({
    runId: run.runId,
    actionId: confirm.pendingAction!.id,
    answer: { isConfirmed: false, feedback: "use blue" },
    source: "studio",
  });
  assert.equal(revised.cursor.stepName, "ask");
  const blue = REVIEW_ANSWER.map((a) => a.questionId === "color" ? { ...a, answer: "blue" } : a);
  const again = await engine.answerAsk({
    runId: run.runId,
    actionId: revised.pendingAction!.id,
    answer: blue,
    source: "cli",
  });
  const blueRecorded = blue.map((a) => a.questionId === "color" ? { ...a, label: "Blue" } : a);
  const done = await engine.answerAsk({
    runId: run.runId,
    actionId: again.pendingAction!.id,
    answer: { isConfirmed: true },
    source: "cli",
  });
  assert.equal(done.status, "completed");
  assert.equal(done.pendingAction, undefined);
  // Only a cancelled Run is cancelled again unchanged: a completed one cannot be.
  await assert.rejects(async () => await engine.cancelRun(run.runId, "cli"), (e) => code(e) === "CONFLICT");

  const artifact = await engine.getArtifact({ flowName: "review", stageName: "collect" });
  assert.equal(artifact?.revision, 1);
  assert.deepEqual(artifact?.data, blueRecorded);
  const record = await engine.getRecord(artifact!.recordId);
  assert.equal(record?.runId, run.runId);
  assert.equal(record?.answers.length, 4);
  const timeline = await engine.getRunTimeline(run.runId);
  const answered = timeline.filter((event) => event.type === "action_answered");
  assert.deepEqual(answered.map((event) => event.source), ["cli", "studio", "cli", "cli"]);
  assert.deepEqual(answered.map((event) => event.channel), ["terminal", "studio", "terminal", "terminal"]);
  assert.equal(timeline.at(-1)?.type, "run_completed");
  await engine.close();
});

Deno.test("artifacts gain revisions and keep every earlier one", async () => {
  const engine = await openEngine();
  for (const title of ["First title", "Second title"]) {
    const run = await engine.startRun({
      flowName: "review",
      intent: "x",
      source: "cli",
      agentExecutor: "service",
    });
    const answer = REVIEW_ANSWER.map((a) => a.questionId === "title" ? { ...a, answer: title } : a);
    const c = await engine.answerAsk({
      runId: run.runId,
      actionId: run.pendingAction!.id,
      answer,
      source: "cli",
    });
    await engine.answerAsk({
      runId: run.runId,
      actionId: c.pendingAction!.id,
      answer: { isConfirmed: true },
      source: "cli",
    });
  }
  const current = (await engine.getArtifact({ flowName: "review", stageName: "collect" }))!;
  assert.equal(current.revision, 2);
  const first = (await engine.getArtifact({ artifactId: current.artifactId }, 1))!;
  assert.equal((first.data as { answer: string }[])[0].answer, "First title");
  assert.notEqual(first.recordId, current.recordId);
  assert.equal(await engine.getArtifact({ artifactId: current.artifactId }, 3), null);
  assert.equal(await engine.getRecord("rec_missing"), null);
  assert.deepEqual((await engine.stats()).runs.completed, 2);
  assert.equal((await engine.stats()).records, 2);
  await engine.close();
});

Deno.test("malformed answers are INVALID_REQUEST and consume nothing; stale ones are CONFLICT", async () => {
  const engine = await openEngine();
  const run = await engine.startRun({
    flowName: "review",
    intent: "x",
    source: "cli",
    agentExecutor: "service",
  });
  const actionId = run.pendingAction!.id;
  const bad: unknown[] = [
    {},
    "text",
    [],
    REVIEW_ANSWER.slice(0, 2),
    [...REVIEW_ANSWER, REVIEW_ANSWER[0]],
    REVIEW_ANSWER.map((a) => a.questionId === "title" ? { ...a, questionId: "nope" } : a),
    REVIEW_ANSWER.map((a) => a.questionId === "title" ? { ...a, answer: "   " } : a),
    REVIEW_ANSWER.map((a) => a.questionId === "title" ? { questionId: "title", isSkipped: true } : a),
    REVIEW_ANSWER.map((a) => a.questionId === "color" ? { ...a, answer: "green" } : a),
    REVIEW_ANSWER.map((a) => a.questionId === "notes" ? { ...a, answer: "but skipped" } : a),
    REVIEW_ANSWER.map((a) => ({ ...a, extra: 1 })),
    REVIEW_ANSWER.map((a) => ({ ...a, isSkipped: "no" })),
  ];
  for (const answer of bad) {
    await assert.rejects(
      async () => await engine.answerAsk({ runId: run.runId, actionId, answer, source: "cli" }),
      (e) => code(e) === "INVALID_REQUEST",
      JSON.stringify(answer),
    );
  }
  assert.equal((await engine.getRun(run.runId)).pendingAction?.id, actionId);
  await assert.rejects(
    async () =>
      await engine.answerAsk({
        runId: run.runId,
        actionId: "act_other",
        answer: REVIEW_ANSWER,
        source: "cli",
      }),
    (e) => code(e) === "CONFLICT",
  );
  await assert.rejects(
    async () =>
      await engine.answerAsk({ runId: "run_missing", actionId, answer: REVIEW_ANSWER, source: "cli" }),
    (e) => code(e) === "NOT_FOUND",
  );
  const next = await engine.answerAsk({ runId: run.runId, actionId, answer: REVIEW_ANSWER, source: "cli" });
  await assert.rejects(
    async () => await engine.answerAsk({ runId: run.runId, actionId, answer: REVIEW_ANSWER, source: "cli" }),
    (e) => code(e) === "CONFLICT",
  );
  const confirmId = next.pendingAction!.id;
  assert.equal(
    (await engine.pendingAction({ runId: run.runId, actionId: confirmId, source: "cli" })).action.kind,
    "user_ask_confirmation",
  );
  for (
    const answer of [
      { isConfirmed: false },
      { isConfirmed: false, feedback: " " },
      { isConfirmed: "yes" },
      [],
    ]
  ) {
    await assert.rejects(
      async () => await engine.answerAsk({ runId: run.runId, actionId: confirmId, answer, source: "cli" }),
      (e) => code(e) === "INVALID_REQUEST",
    );
  }
  assert.equal((await engine.getRun(run.runId)).pendingAction?.id, confirmId);
  await engine.close();
});

Deno.test("a failing check loops back with feedback, and budgets bound the loop", async () => {
  const engine = await openEngine();
  const run = await engine.startRun({
    flowName: "review",
    intent: "x",
    source: "cli",
    agentExecutor: "service",
  });
  const short = REVIEW_ANSWER.map((a) => a.questionId === "title" ? { ...a, answer: "ab" } : a);
  let view = run;
  for (let round = 1; round <= 3; round++) {
    view = await engine.answerAsk({
      runId: run.runId,
      actionId: view.pendingAction!.id,
      answer: short,
      source: "cli",
    });
    if (round < 3) assert.equal(view.pendingAction?.kind, "user_ask_questions");
  }
  assert.equal(view.status, "failed");
  assert.equal(view.lastError?.code, "BUDGET_EXCEEDED");
  const checks = (await engine.getRunTimeline(run.runId)).filter((event) => event.type === "check_evaluated");
  assert.deepEqual(checks[0].feedback, ["title too short"]);
  await engine.close();
});

Deno.test("a check's feedback says a missing value is missing, not what its message says of a wrong one", async () => {
  const manifest = structuredClone(reviewManifest());
  const check = manifest.stages.collect.steps.check as { rules: { at: string }[] };
  check.rules[0].at = "/answers/9/answer";
  const engine = await openEngine({ manifest });
  const run = await engine.startRun({
    flowName: "review",
    intent: "x",
    source: "cli",
    agentExecutor: "service",
  });
  await engine.answerAsk({
    runId: run.runId,
    actionId: run.pendingAction!.id,
    answer: REVIEW_ANSWER,
    source: "cli",
  });
  const [evaluated] = (await engine.getRunTimeline(run.runId)).filter((event) =>
    event.type === "check_evaluated"
  );
  assert.deepEqual(evaluated.feedback, ["/answers/9/answer: missing"]);
  await engine.close();
});

Deno.test("cancel ends an active Run once and notifies listeners; cancelling it again returns it unchanged", async () => {
  const engine = await openEngine();
  const seen: string[] = [];
  const stop = engine.onRunChanged((run) => seen.push(run.status));
  const run = await engine.startRun({
    flowName: "review",
    intent: "x",
    source: "cli",
    agentExecutor: "service",
  });
  const cancelled = await engine.cancelRun(run.runId, "studio");
  assert.equal(cancelled.status, "cancelled");
  assert.equal(cancelled.pendingAction, undefined);
  assert.deepEqual(await engine.cancelRun(run.runId, "cli"), cancelled);
  await assert.rejects(async () =>
    await engine.answerAsk({
      runId: run.runId,
      actionId: run.pendingAction!.id,
      answer: REVIEW_ANSWER,
      source: "cli",
    }), (e) => code(e) === "CONFLICT");
  stop();
  await engine.startRun({ flowName: "review", intent: "y", source: "cli", agentExecutor: "service" });
  assert.deepEqual(seen, ["waiting", "cancelled"]);
  assert.equal((await engine.getRunTimeline(run.runId)).at(-1)?.source, "studio");
  await engine.close();
});

Deno.test("flow refuses blank intents, unknown flows, and second Runs of exclusive workflows", async () => {
  const engine = await openEngine({ manifest: reviewManifest({ exclusive: true }) });
  await assert.rejects(
    async () =>
      await engine.startRun({ flowName: "review", intent: "  ", source: "cli", agentExecutor: "service" }),
    (e) => code(e) === "INVALID_REQUEST",
  );
  await assert.rejects(
    async () =>
      await engine.startRun({ flowName: "nope", intent: "x", source: "cli", agentExecutor: "service" }),
    (e) => code(e) === "NOT_FOUND",
  );
  const first = await engine.startRun({
    flowName: "review",
    intent: "x",
    source: "cli",
    agentExecutor: "service",
  });
  await assert.rejects(
    async () =>
      await engine.startRun({
        flowName: "review",
        intent: "y",
        source: "agent_ide",
        agentExecutor: "mcp_client",
      }),
    (e) => code(e) === "CONFLICT",
  );
  await engine.cancelRun(first.runId, "cli");
  assert.equal(
    (await engine.startRun({ flowName: "review", intent: "y", source: "cli", agentExecutor: "service" }))
      .status,
    "waiting",
  );
  await engine.close();
});

Deno.test("without any model configured, a Run the terminal or Studio starts waits for the IDE's agent", async () => {
  const engine = await openEngine();
  for (const source of ["cli", "studio"] as const) {
    const run = await engine.startRun({ flowName: "intent", intent: "x", source, agentExecutor: "service" });
    assert.deepEqual(run.execution, { source, agentExecutor: "mcp_client" });
    assert.equal(run.pendingAgentCall?.phase, "available");
    const intent = (await engine.listWorkflows("service")).find((w) => w.name === "intent")!;
    assert.equal(intent.ready, true);
    assert.equal(intent.agentExecutor, "mcp_client");
  }
  const review = (await engine.listWorkflows("service")).find((w) => w.name === "review")!;
  assert.equal(review.agentExecutor, undefined, "a workflow without agent steps needs no executor");
  await engine.close();
});

Deno.test("with a model configured but not the role a workflow needs, internal sources are refused and create nothing", async () => {
  const models: ModelRoles = {
    readiness: (role) => ({ role, ready: false, reason: `no model is configured for the role "${role}"` }),
    list: () => [models.readiness("default")],
    configured: () => true,
  };
  const engine = await openEngine({ models });
  for (const source of ["cli", "studio"] as const) {
    await assert.rejects(
      async () =>
        await engine.startRun({ flowName: "intent", intent: "x", source, agentExecutor: "service" }),
      (e) => code(e) === "CONFIGURATION_REQUIRED",
    );
    const intent = (await engine.listWorkflows("service")).find((w) => w.name === "intent")!;
    assert.equal(intent.ready, false);
    assert.match(intent.reason!, /model/);
    assert.equal((await engine.listWorkflows("service")).find((w) => w.name === "review")!.ready, true);
  }
  assert.equal((await engine.listWorkflows("mcp_client")).find((w) => w.name === "intent")!.ready, true);
  assert.equal((await engine.listRuns({})).runs.length, 0);
  await engine.close();
});
