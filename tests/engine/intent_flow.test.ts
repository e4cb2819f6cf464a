import assert from "node:assert/strict";
import { WeftError } from "../../src/errors.ts";
import type { Engine } from "../../src/engine/engine.ts";
import type { RunView } from "../../src/engine/views.ts";
import { openEngine } from "./support.ts";
import { MemoryProject } from "../support/memory_project.ts";
import { PLAN, SPECIFICATION } from "../support/intent_agent.ts";

async function tool(engine: Engine, run: RunView, toolId: string, input: unknown): Promise<unknown> {
  return await engine.runAgentTool({ runId: run.runId, callId: run.pendingAgentCall!.id, toolId, input });
}

async function answer(engine: Engine, run: RunView, value: unknown): Promise<RunView> {
  return await engine.answerAsk({
    runId: run.runId,
    actionId: run.pendingAction!.id,
    answer: value,
    source: "agent_ide",
    nativeForm: true,
  });
}

Deno.test("the intent workflow runs both stages through clarification, repair and revision loops", async () => {
  const project = new MemoryProject({ "README.md": "# demo\n", "src/main.ts": "" });
  const engine = await openEngine({ project });
  try {
    let run = await engine.startRun({
      flowName: "intent",
      intent: "add CSV export",
      source: "agent_ide",
      agentExecutor: "mcp_client",
    });
    assert.equal(run.execution.agentExecutor, "mcp_client");
    assert.equal(run.pendingAgentCall?.agentId, "specifier");

    const task = (await engine.agentCall(run.runId, run.pendingAgentCall!.id)).task;
    assert.deepEqual(task.tools.map((t) => t.id), [
      "get_context",
      "list_files",
      "read_file",
      "submit_specification",
      "submit_questions",
    ]);
    assert.equal(task.skills[0].assets[0].id, "specification-writing/template.md");
    assert.equal(
      (await engine.readAgentAsset({
        runId: run.runId,
        callId: task.callId,
        assetId: "specification-writing/template.md",
      })).encoding,
      "utf8",
    );
    assert.equal(
      (await engine.claimAgentCall({ runId: run.runId, callId: task.callId, claimant: "mcp_client" })).run
        .pendingAgentCall?.phase,
      "claimed",
    );

    assert.deepEqual(await tool(engine, run, "list_files", {}), {
      files: ["README.md", "src/main.ts"],
      truncated: false,
    });
    assert.equal(
      ((await tool(engine, run, "read_file", { path: "README.md" })) as { content: string }).content,
      "# demo\n",
    );

    // Clarification loop.
    await tool(engine, run, "submit_questions", { value: [{ id: "scope", question: "Which reports?" }] });
    run = await engine.completeAgentCall({
      runId: run.runId,
      callId: task.callId,
      result: { outcome: "clarification_required" },
    });
    assert.equal(run.pendingAction?.kind, "user_ask_questions");
    run = await answer(engine, run, [{ questionId: "scope", isSkipped: false, answer: "All of them" }]);
    assert.notEqual(run.pendingAgentCall?.id, task.callId);
    const context = (await tool(engine, run, "get_context", {})) as {
      answers: { answer: unknown }[];
      intent: string;
    };
    assert.equal(context.intent, "add CSV export");
    assert.deepEqual(context.answers[0].answer, [{
      questionId: "scope",
      isSkipped: false,
      answer: "All of them",
    }]);

    // A rejected submission, an invalid output, then a check that sends the agent back.
    await assert.rejects(
      tool(engine, run, "submit_specification", { value: { ...SPECIFICATION, goals: "one" } }),
      (e) =>
        e instanceof WeftError && e.code === "INVALID_REQUEST" && e.message.includes("/specification/goals"),
    );
    await assert.rejects(
      tool(engine, run, "nope", {}),
      (e) => e instanceof WeftError && e.code === "INVALID_REQUEST",
    );
    await tool(engine, run, "submit_specification", { value: { ...SPECIFICATION, goals: [] } });
    await assert.rejects(
      async () =>
        await engine.completeAgentCall({
          runId: run.runId,
          callId: run.pendingAgentCall!.id,
          result: { outcome: "done" },
        }),
      (e) => e instanceof WeftError && e.code === "AGENT_OUTPUT_INVALID" && e.message.includes("/outcome"),
    );
    assert.ok((await engine.getRun(run.runId)).pendingAgentCall);
    run = await engine.completeAgentCall({
      runId: run.runId,
      callId: run.pendingAgentCall!.id,
      result: { outcome: "ready" },
    });
    assert.equal(run.pendingAgentCall?.agentId, "specifier", JSON.stringify(run));
    const repaired = (await tool(engine, run, "get_context", {})) as { state: { checkFeedback: string[] } };
    assert.deepEqual(repaired.state.checkFeedback, ["List at least one goal."]);

    // Revision loop, then confirmation and commit.
    await tool(engine, run, "submit_specification", { value: SPECIFICATION });
    run = await engine.completeAgentCall({
      runId: run.runId,
      callId: run.pendingAgentCall!.id,
      result: { outcome: "ready" },
    });
    assert.equal(run.pendingAction?.kind, "user_ask_confirmation");
    assert.deepEqual((run.pendingAction!.request as { context: unknown }).context, SPECIFICATION);
    run = await answer(engine, run, { isConfirmed: false, feedback: "add a size limit" });
    const revised = (await tool(engine, run, "get_context", {})) as { feedback: string[] };
    assert.deepEqual(revised.feedback, ["add a size limit"]);
    run = await engine.completeAgentCall({
      runId: run.runId,
      callId: run.pendingAgentCall!.id,
      result: { outcome: "ready" },
    });
    run = await answer(engine, run, { isConfirmed: true });
    assert.equal(run.cursor.stageName, "plan");
    assert.equal(run.pendingAgentCall?.agentId, "planner");

    // Plan stage reads the committed specification.
    const planContext = (await tool(engine, run, "get_context", {})) as { artifacts: unknown[] };
    const specArtifact = (await engine.getArtifact({ flowName: "intent", stageName: "specification" }))!;
    assert.deepEqual(planContext.artifacts, [
      { stageName: "specification", artifactId: specArtifact.artifactId, revision: 1, data: SPECIFICATION },
    ]);
    // A plan that leaves a requirement to no task goes back to the planner, naming the requirement.
    const uncovered = { ...PLAN, tasks: PLAN.tasks.map(({ requirements: _, ...task }) => task) };
    await tool(engine, run, "submit_plan", { value: uncovered });
    run = await engine.completeAgentCall({
      runId: run.runId,
      callId: run.pendingAgentCall!.id,
      result: { outcome: "ready" },
    });
    assert.equal(run.pendingAgentCall?.agentId, "planner", "an uncovered requirement is sent back");
    const gap = (await tool(engine, run, "get_context", {})) as { state: { checkFeedback: string[] } };
    assert.deepEqual(gap.state.checkFeedback, [
      "Cover every requirement of the specification with a task that names it in its requirements; not " +
      "covered: R1",
    ]);
    await tool(engine, run, "submit_plan", { value: PLAN });
    run = await engine.completeAgentCall({
      runId: run.runId,
      callId: run.pendingAgentCall!.id,
      result: { outcome: "ready" },
    });
    run = await answer(engine, run, { isConfirmed: true });
    assert.equal(run.status, "completed");
    assert.deepEqual((await engine.getArtifact({ flowName: "intent", stageName: "plan" }))?.data, PLAN);
    assert.equal((await engine.getRecord(specArtifact.recordId))!.answers.length, 3);
  } finally {
    await engine.close();
  }
});

Deno.test("agent call hooks refuse stale calls and failures end the Run", async () => {
  const engine = await openEngine();
  const run = await engine.startRun({
    flowName: "intent",
    intent: "x",
    source: "agent_ide",
    agentExecutor: "mcp_client",
  });
  const callId = run.pendingAgentCall!.id;
  // A call the Run never started is unknown; one it started and moved past is a conflict (below).
  await assert.rejects(
    () => engine.agentCall(run.runId, "call_other"),
    (e) => e instanceof WeftError && e.code === "NOT_FOUND",
  );
  await assert.rejects(
    () => engine.agentCall("run_none", callId),
    (e) => e instanceof WeftError && e.code === "NOT_FOUND",
  );
  await assert.rejects(
    async () => await engine.readAgentAsset({ runId: run.runId, callId, assetId: "../workflow.json" }),
    (e) => e instanceof WeftError && e.code === "INVALID_REQUEST",
  );
  const failed = await engine.failAgentCall({
    runId: run.runId,
    callId,
    message: "cannot read the repository",
  });
  assert.equal(failed.status, "failed");
  assert.deepEqual(failed.lastError, {
    code: "AGENT_CALL_FAILED",
    message: "cannot read the repository",
    retryable: false,
  });
  await assert.rejects(
    async () => await engine.completeAgentCall({ runId: run.runId, callId, result: { outcome: "ready" } }),
    (e) => e instanceof WeftError && e.code === "CONFLICT",
  );
  await engine.close();
});
