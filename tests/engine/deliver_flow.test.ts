/**
 * The built-in `deliver` workflow at the engine, over the in-memory storage and project: a plan confirmed by
 * `intent` becomes its list of tasks; a task is done only once its verify command passed and the person
 * confirmed the changes since it began; a failing verify goes back to the agent with its output, and after
 * the declared attempts the person decides; the plan's new revisions change the tasks not yet begun.
 */
import assert from "node:assert/strict";
import { WeftError } from "../../src/errors.ts";
import { MemoryProject } from "../support/memory_project.ts";
import { listCounts } from "../support/list_workflows.ts";
import {
  answer,
  confirmedPlan,
  implement,
  startDeliver,
  statuses,
  task,
  THREE_TASKS,
  verify,
} from "../support/deliver.ts";
import { plan } from "../support/intent_agent.ts";
import { openEngine } from "./support.ts";
import type { ActionReview } from "../../src/engine/views.ts";

const decision = (choice: string) => [{ questionId: "decision", isSkipped: false, answer: choice }];

Deno.test("deliver: three tasks, a verify that fails once, a person's request for changes, a task that waits for the first", async () => {
  const project = new MemoryProject({ "README.md": "# demo\n" });
  const engine = await openEngine({ project });
  try {
    const intent = await confirmedPlan(engine);
    assert.deepEqual(intent.next, {
      flowName: "deliver",
      intent: intent.runId,
      say: "deliver its plan, task by task, with",
    });
    let run = await startDeliver(engine, intent.next!.intent);
    assert.equal(run.status, "waiting");
    assert.deepEqual(run.list?.items.map((item) => [item.id, item.status]), [
      ["T1", "running"],
      ["T2", "pending"],
      ["T3", "pending"],
    ]);
    assert.deepEqual(run.list?.source?.revision, 1);

    // T1: the agent sees its task and the specification, writes a file; verify fails once.
    let step = await implement(engine, run, async (tool) => {
      await tool("write", { path: "src/t1.ts", content: "export const t1 = 1;\n" });
    });
    const state = step.context.state;
    assert.equal((state.task as { id: string }).id, "T1");
    assert.deepEqual(
      (state.input as { specification: unknown }).specification,
      (await engine.getArtifact({
        flowName: "intent",
        stageName: "specification",
      }))?.data,
    );
    assert.equal(state.attempt, 1);
    run = await verify(engine, step.run, 1, "FAIL t1_test: expected 2\n");
    assert.equal(run.pendingAgentCall?.agentId, "implementer", "a failed verify goes back to the agent");
    assert.equal(run.list?.items[0].attempts, 2);
    assert.deepEqual(run.list?.items[0].verify && { ...run.list.items[0].verify, at: "" }, {
      passed: false,
      outcome: "failed",
      exitCode: 1,
      summary: "FAIL t1_test: expected 2",
      at: "",
    });
    assert.equal(intent.title, undefined, "an intent Run's intent is its own title");
    assert.equal(run.title, "deliver something", "a deliver Run is titled by its plan's intent");
    step = await implement(engine, run);
    assert.match(
      (step.context.state.verify as { stdout: { text: string } }).stdout.text,
      /expected 2/,
      "the second attempt sees the failing output",
    );
    run = await verify(engine, step.run, 0, "ok\n");
    assert.equal(run.pendingAction?.kind, "user_ask_confirmation");
    // The review names the task and what it serves, says what the agent did, how verify went, what changed.
    const review = run.pendingAction!.request as ActionReview & { context?: unknown };
    assert.equal(review.title, "Review the task's changes");
    assert.deepEqual(review.item, {
      id: "T1",
      title: "Task T1",
      attempt: 2,
      description: "Implement T1.",
      requirements: [{
        id: "R1",
        statement: "Every report has an Export button",
        acceptance: ["a test proves it"],
      }],
    });
    assert.equal(review.evidence?.summary, "done as asked");
    assert.deepEqual(review.evidence?.verify, {
      run: ["sh", "verify.sh"],
      outcome: "passed",
      exitCode: 0,
      durationMs: 5,
      excerpt: "ok",
    });
    assert.deepEqual(review.evidence?.changes?.files, [{ path: "src/t1.ts", status: "added" }]);
    assert.match(review.evidence?.changes?.diff ?? "", /\+export const t1 = 1;/);
    assert.equal("context" in review, false, "the changes are shown once, as evidence");
    run = await answer(engine, run, { isConfirmed: true });
    assert.deepEqual(statuses(run), { T1: "done", T2: "running", T3: "pending" });

    // T2: the person asks for changes; the agent gets the feedback; only then is it confirmed.
    step = await implement(engine, run, async (tool) => {
      await tool("write", { path: "src/t2.ts", content: "export const t2 = 2;\n" });
    });
    run = await verify(engine, step.run, 0);
    const t2Changes = (run.pendingAction!.request as ActionReview).evidence?.changes?.files;
    assert.deepEqual(t2Changes, [{ path: "src/t2.ts", status: "added" }], "only what changed since T2 began");
    run = await answer(engine, run, { isConfirmed: false, feedback: "name it two" });
    assert.equal(run.list?.items[1].status, "running");
    step = await implement(engine, run);
    assert.equal(step.context.state.reviewFeedback, "name it two");
    run = await verify(engine, step.run, 0);
    run = await answer(engine, run, { isConfirmed: true });
    assert.deepEqual(statuses(run), { T1: "done", T2: "done", T3: "running" });
    assert.equal(run.list?.items[1].attempts, 2);

    // T3 (after T1): done on its first attempt.
    step = await implement(engine, run);
    run = await verify(engine, step.run, 0);
    run = await answer(engine, run, { isConfirmed: true });
    assert.equal(run.status, "completed");
    assert.deepEqual(run.list?.counts, listCounts({ done: 3 }));
  } finally {
    await engine.close();
  }
});

Deno.test("deliver: a task's last verify says which test failed and the counts, not the runner's last line", async () => {
  const engine = await openEngine();
  try {
    const intent = await confirmedPlan(engine);
    const step = await implement(engine, await startDeliver(engine, intent.runId));
    const tap = await Deno.readTextFile(new URL("../lib/samples/node_tap.txt", import.meta.url));
    const run = await verify(engine, step.run, 1, tap);
    const summary = run.list?.items[0].verify?.summary ?? "";
    assert.match(summary, /^not ok 1 - slugify lowercases/);
    assert.match(summary, /# fail 1/);
    assert.doesNotMatch(summary, /duration_ms/);
    assert.ok(summary.length <= 400);
  } finally {
    await engine.close();
  }
});

Deno.test("deliver: a task whose dependency is not done waits; one it depends on that is skipped blocks it", async () => {
  const engine = await openEngine();
  try {
    const intent = await confirmedPlan(engine, {
      ...plan(),
      tasks: [task("T3", ["T1"]), task("T1"), task("T2")],
    });
    let run = await startDeliver(engine, intent.runId);
    assert.equal(run.list?.current, "T1", "T3 is listed first but waits for T1");
    for (let attempt = 1; attempt <= 3; attempt++) {
      const step = await implement(engine, run);
      run = await verify(engine, step.run, 1, `attempt ${attempt} failed`);
    }
    assert.equal(run.pendingAction?.kind, "user_ask_questions", "after three failures the person decides");
    const decide = run.pendingAction!.request as ActionReview;
    assert.equal(decide.title, "Verify keeps failing");
    assert.equal(decide.item?.id, "T1", "the decision names the task");
    assert.deepEqual(decide.evidence?.verify && { ...decide.evidence.verify, durationMs: 0 }, {
      run: ["sh", "verify.sh"],
      outcome: "failed",
      exitCode: 1,
      durationMs: 0,
      excerpt: "attempt 3 failed",
    });
    assert.equal(run.list?.items[0].status, "running", "never done, never silently failed");
    run = await answer(engine, run, decision("skip"));
    assert.deepEqual(statuses(run), { T1: "skipped", T3: "blocked", T2: "running" });
    assert.equal(
      run.list?.items.find((item) => item.id === "T3")?.reason,
      'it depends on "T1", which is skipped',
    );
  } finally {
    await engine.close();
  }
});

Deno.test("deliver: after the attempts the person can retry once more, or stop delivering", async () => {
  const engine = await openEngine();
  try {
    const intent = await confirmedPlan(engine);
    let run = await startDeliver(engine, intent.runId);
    for (let attempt = 1; attempt <= 3; attempt++) {
      run = await verify(engine, (await implement(engine, run)).run, 1);
    }
    run = await answer(engine, run, decision("retry"));
    assert.equal(run.pendingAgentCall?.agentId, "implementer");
    assert.equal(run.list?.items[0].attempts, 4);
    run = await verify(engine, (await implement(engine, run)).run, 1);
    assert.equal(run.pendingAction?.kind, "user_ask_questions", "a retry that fails asks again");
    run = await answer(engine, run, decision("stop"));
    assert.equal(run.status, "completed");
    assert.equal(run.list?.stopped, true);
    assert.deepEqual(statuses(run), { T1: "failed", T2: "pending", T3: "pending" });
  } finally {
    await engine.close();
  }
});

Deno.test("deliver: no tool of the agent's, and no result it can give, marks a task done", async () => {
  const engine = await openEngine();
  try {
    const intent = await confirmedPlan(engine);
    const run = await startDeliver(engine, intent.runId);
    const callId = run.pendingAgentCall!.id;
    const { task: agentTask } = await engine.claimAgentCall({
      runId: run.runId,
      callId,
      claimant: "mcp_client",
    });
    assert.deepEqual(agentTask.tools.map((tool) => tool.kind), [
      "run_context",
      "list_project_files",
      "read_project_file",
      "write_project_file",
      "patch_project_file",
    ]);
    assert.deepEqual((agentTask.outputSchema.properties as { outcome: unknown }).outcome, {
      enum: ["implemented"],
    });
    assert.deepEqual(agentTask.item, { id: "T1", title: "Task T1", attempt: 1, data: task("T1") });
    await assert.rejects(
      engine.completeAgentCall({
        runId: run.runId,
        callId,
        result: { outcome: "done", summary: "trust me" },
      }),
      (error) => error instanceof WeftError && error.code === "AGENT_OUTPUT_INVALID",
    );
    const after = await engine.getRun(run.runId);
    assert.equal(after.list?.items[0].status, "running");
  } finally {
    await engine.close();
  }
});

Deno.test("deliver: the intent names the plan by its intent Run, its Artifact or its published file; anything else is refused", async () => {
  const engine = await openEngine();
  try {
    const intent = await confirmedPlan(engine);
    const planArtifact = (await engine.getArtifact({ flowName: "intent", stageName: "plan" }))!;
    const byArtifact = await startDeliver(engine, planArtifact.artifactId);
    assert.equal(byArtifact.list?.source?.artifactId, planArtifact.artifactId);
    assert.ok(planArtifact.publication?.path);
    const byFile = await startDeliver(engine, `deliver ${planArtifact.publication!.path}`);
    assert.equal(byFile.list?.items.length, 3);
    const spec = (await engine.getArtifact({ flowName: "intent", stageName: "specification" }))!;
    for (
      const [named, message] of [
        ["nothing-here", /the intent names no plan: "nothing-here"/],
        [spec.artifactId, /is not a plan: it holds no tasks/],
        [byArtifact.runId, /has committed no plan yet/],
      ]
    ) {
      const before = (await engine.listRuns({})).runs.length;
      await assert.rejects(
        startDeliver(engine, named as string),
        (error) =>
          error instanceof WeftError && error.code === "INVALID_REQUEST" &&
          (message as RegExp).test(error.message),
      );
      assert.equal((await engine.listRuns({})).runs.length, before, "no Run is created");
    }
    assert.equal(intent.status, "completed");
  } finally {
    await engine.close();
  }
});

Deno.test("deliver: a blocked task whose dependency a new revision of the plan drops begins after all", async () => {
  const engine = await openEngine();
  try {
    const first = await confirmedPlan(engine, {
      ...plan(),
      tasks: [task("T3", ["T1"]), task("T1"), task("T2")],
    });
    let run = await startDeliver(engine, first.runId);
    for (let attempt = 1; attempt <= 3; attempt++) {
      run = await verify(engine, (await implement(engine, run)).run, 1, `attempt ${attempt} failed`);
    }
    run = await answer(engine, run, decision("skip"));
    assert.deepEqual(statuses(run), { T1: "skipped", T3: "blocked", T2: "running" });
    // The person revises the plan: T3 no longer needs T1.
    await confirmedPlan(engine, { ...plan(), tasks: [task("T3"), task("T1"), task("T2")] });
    run = await verify(engine, (await implement(engine, run)).run, 0);
    run = await answer(engine, run, { isConfirmed: true });
    assert.deepEqual(statuses(run), { T1: "skipped", T3: "running", T2: "done" });
    assert.equal(run.list?.items.find((item) => item.id === "T3")?.reason, undefined);
  } finally {
    await engine.close();
  }
});

Deno.test("deliver: a new revision of the plan changes the tasks not begun at the next task's start; done ones stay done", async () => {
  const engine = await openEngine();
  try {
    const first = await confirmedPlan(engine);
    let run = await startDeliver(engine, first.runId);
    // While T1 runs, the plan is revised: T2 dropped, T4 added first, T3 kept.
    await confirmedPlan(engine, { ...THREE_TASKS, tasks: [task("T4"), task("T1"), task("T3", ["T1"])] });
    assert.deepEqual(statuses(run), { T1: "running", T2: "pending", T3: "pending" });
    run = await verify(engine, (await implement(engine, run)).run, 0);
    run = await answer(engine, run, { isConfirmed: true });
    assert.equal(run.list?.source?.revision, 2);
    assert.deepEqual(run.list?.items.map((item) => [item.id, item.status]), [
      ["T4", "running"],
      ["T1", "done"],
      ["T3", "pending"],
      ["T2", "skipped"],
    ]);
    assert.match(run.list!.items[3].reason!, /revision 2 of its list no longer holds it/);
    const revised = (await engine.getRunTimeline(run.runId)).find((event) => event.type === "list_revised");
    assert.deepEqual([revised?.added, revised?.dropped], [["T4"], ["T2"]]);
  } finally {
    await engine.close();
  }
});

Deno.test("deliver: a done task that a new revision of the plan drops stays done", async () => {
  const engine = await openEngine();
  try {
    const first = await confirmedPlan(engine);
    let run = await startDeliver(engine, first.runId);
    run = await verify(engine, (await implement(engine, run)).run, 0);
    run = await answer(engine, run, { isConfirmed: true });
    assert.deepEqual(statuses(run), { T1: "done", T2: "running", T3: "pending" });
    // While T2 runs, the plan is revised without T1 (and T3 no longer waits for it).
    await confirmedPlan(engine, { ...THREE_TASKS, tasks: [task("T2"), task("T3")] });
    run = await verify(engine, (await implement(engine, run)).run, 0);
    run = await answer(engine, run, { isConfirmed: true });
    assert.equal(run.list?.source?.revision, 2);
    assert.deepEqual(run.list?.items.map((item) => [item.id, item.status]), [
      ["T2", "done"],
      ["T3", "running"],
      ["T1", "done"],
    ]);
    assert.equal(run.list?.items[2].reason, undefined, "a done task gets no reason to be skipped");
    assert.deepEqual(run.list?.counts, listCounts({ done: 2, running: 1 }));
  } finally {
    await engine.close();
  }
});

Deno.test("deliver: the person's feedback on one task is not in the next task's context", async () => {
  const engine = await openEngine();
  try {
    const first = await confirmedPlan(engine);
    let run = await startDeliver(engine, first.runId);
    run = await verify(engine, (await implement(engine, run)).run, 0);
    run = await answer(engine, run, { isConfirmed: false, feedback: "rename t1 to one" });
    let step = await implement(engine, run);
    const own = step.context as unknown as { feedback: string[] };
    assert.deepEqual(own.feedback, ["rename t1 to one"], "the task that was asked for changes sees them");
    run = await verify(engine, step.run, 0);
    run = await answer(engine, run, { isConfirmed: true });
    assert.equal(run.list?.current, "T2");
    step = await implement(engine, run);
    const next = step.context as unknown as { feedback: string[]; answers: unknown[] };
    assert.deepEqual(next.feedback, []);
    assert.deepEqual(next.answers, [], "no answer given about T1 is part of T2's context");
    assert.equal(step.context.state.reviewFeedback, undefined);
  } finally {
    await engine.close();
  }
});

Deno.test("deliver: another intent's plan, which keeps none of the tasks, is refused once as a revision; the tasks stay", async () => {
  const engine = await openEngine();
  try {
    const first = await confirmedPlan(engine);
    let run = await startDeliver(engine, first.runId);
    await confirmedPlan(engine, { ...plan(), tasks: [task("X1"), task("X2")] });
    run = await verify(engine, (await implement(engine, run)).run, 0);
    run = await answer(engine, run, { isConfirmed: true });
    assert.deepEqual(statuses(run), { T1: "done", T2: "running", T3: "pending" });
    assert.equal(run.list?.source?.revision, 1);
    // The refused revision stays the latest: it is not refused again at each following task.
    for (const id of ["T2", "T3"]) {
      assert.equal(run.list?.current, id);
      run = await verify(engine, (await implement(engine, run)).run, 0);
      run = await answer(engine, run, { isConfirmed: true });
    }
    assert.equal(run.status, "completed");
    const refused = (await engine.getRunTimeline(run.runId)).filter((event) =>
      event.type === "list_revision_refused"
    );
    assert.equal(refused.length, 1, "refused once, not at every boundary");
    assert.equal(refused[0].revision, 2);
    assert.match(String(refused[0].reason), /keeps none of the items being worked through/);
  } finally {
    await engine.close();
  }
});

Deno.test("deliver: a person's edit of the published plan, brought back by a revision Run, changes the tasks not begun", async () => {
  const files = new MemoryProject();
  const engine = await openEngine({ project: files });
  try {
    const first = await confirmedPlan(engine);
    let run = await startDeliver(engine, first.runId);
    const published = (await engine.getArtifact({ flowName: "intent", stageName: "plan" }))!;
    const path = published.publication!.path;
    files.put(path, files.text(path)!.replace("Task T2", "Task T2 (dropped)"));

    // The revision path of published Artifacts: its agent proposes the plan as edited, the person confirms.
    let revision = await engine.reviseArtifact({ path, source: "agent_ide", agentExecutor: "mcp_client" });
    const callId = revision.pendingAgentCall!.id;
    await engine.claimAgentCall({ runId: revision.runId, callId, claimant: "mcp_client" });
    const revised = { ...THREE_TASKS, tasks: [task("T1"), task("T3", ["T1"]), task("T4", ["T3"])] };
    revision = await engine.completeAgentCall({
      runId: revision.runId,
      callId,
      result: { outcome: "revised", data: revised },
    });
    revision = await answer(engine, revision, { isConfirmed: true });
    assert.equal(revision.status, "completed", JSON.stringify(revision.lastError));
    assert.equal((await engine.getArtifact({ artifactId: published.artifactId }))?.revision, 2);

    run = await verify(engine, (await implement(engine, run)).run, 0);
    run = await answer(engine, run, { isConfirmed: true });
    assert.equal(run.list?.source?.revision, 2);
    assert.deepEqual(run.list?.items.map((item) => [item.id, item.status]), [
      ["T1", "done"],
      ["T3", "running"],
      ["T4", "pending"],
      ["T2", "skipped"],
    ]);
  } finally {
    await engine.close();
  }
});
