/**
 * The embedded `intent` workflow driven to `completed` by an IDE agent that alternates between `/mcp` and
 * `/mcp/codex` sessions, with the person answering on `/internal/mcp`, against a real `weft serve`.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import type { Client } from "../support/sdk_test_client.ts";
import {
  call,
  callError,
  closeClient,
  mcpClient,
  serve,
  type ServedProject,
  tempProject,
} from "../support/service.ts";
import { answer, claim, complete, ownerRef, useTool } from "./support.ts";
import { PLAN, specification } from "../support/intent_agent.ts";

interface RunContext {
  intent: string;
  answers: { answer: unknown }[];
  feedback: string[];
  artifacts: { stageName: string; data: unknown }[];
}

Deno.test("an IDE agent drives the intent workflow through both stages to completed", async () => {
  const projectDir = await tempProject({ "README.md": "# demo\n", "src/report.ts": "export {};\n" });
  let served: ServedProject | undefined;
  const clients: Client[] = [];
  const open = async (path: string) => {
    const client = await mcpClient(served!, path);
    clients.push(client);
    return client;
  };
  try {
    served = await serve(projectDir);
    let ide = await open("/mcp");
    const codex = await open("/mcp/codex");
    const person = await open("/internal/mcp");

    let run =
      (await call<{ run: RunView }>(ide, "flow", { flowName: "intent", intent: "add CSV export" })).run;
    assert.equal(run.pendingAgentCall?.phase, "available");
    const ref = { runId: run.runId, callId: run.pendingAgentCall!.id };
    const shown = await call<{ agentCall: { phase: string; task: { agentId: string } } }>(
      codex,
      "get_agent_call",
      ref,
    );
    assert.equal(shown.agentCall.phase, "available");
    assert.equal(shown.agentCall.task.agentId, "specifier");

    // First pass: claim, a second claimant refused, receipts replayed, a disconnect and a reconnect.
    const first = await claim(ide, run, "agent-a");
    assert.equal(
      (await callError(codex, "claim_agent_call", { ...ref, claimId: "agent-b" })).code,
      "CONFLICT",
    );
    const listed = await useTool(ide, first, "list-1", "list_files");
    assert.deepEqual(listed, { files: ["README.md", "src/report.ts"], truncated: false });
    assert.deepEqual(await useTool(codex, first, "list-1", "list_files"), listed);
    const changed = await callError(codex, "call_agent_tool", {
      ...ownerRef(first),
      toolCallId: "list-1",
      toolId: "list_files",
      input: { dir: "src" },
    });
    assert.equal(changed.code, "CONFLICT");
    await closeClient(ide);
    ide = await open("/mcp");
    const resumed = await claim(ide, run, "agent-a");
    assert.equal(resumed.ownerToken, first.ownerToken);
    const progress = await call<{ agentCall: { phase: string; receipts: unknown[] } }>(
      ide,
      "get_agent_call",
      ref,
    );
    assert.equal(progress.agentCall.phase, "claimed");
    assert.deepEqual(progress.agentCall.receipts, [{
      toolCallId: "list-1",
      toolId: "list_files",
      status: "succeeded",
    }]);

    // A clarification round answered by the person on the internal endpoint.
    await useTool(ide, resumed, "questions-1", "submit_questions", {
      value: [{ id: "scope", question: "Which reports?", options: [{ id: "all", label: "All reports" }] }],
    });
    run = await complete(codex, resumed, { outcome: "clarification_required" });
    assert.equal(run.pendingAction?.kind, "user_ask_questions");
    run = await answer(person, run, [{ questionId: "scope", isSkipped: false, answer: "All reports" }]);
    assert.equal(run.status, "waiting");

    // Second pass: an invalid completion is refused and corrected while the call stays claimed.
    const second = await claim(codex, run, "agent-a");
    assert.notEqual(second.callId, first.callId);
    const context = await useTool<RunContext>(codex, second, "context-2", "get_context");
    // The person chose an option by its label: the agent reads its id and its label.
    assert.deepEqual(context.answers.at(-1)?.answer, [{
      questionId: "scope",
      isSkipped: false,
      answer: "all",
      label: "All reports",
    }]);
    const invalid = await callError(ide, "complete_agent_call", {
      ...ownerRef(second),
      result: { outcome: "done" },
    });
    assert.equal(invalid.code, "AGENT_OUTPUT_INVALID");
    assert.match(invalid.message, /outcome/);
    const stillClaimed = (await call<{ run: RunView }>(ide, "get_run", { runId: run.runId })).run;
    assert.equal(stillClaimed.pendingAgentCall?.phase, "claimed");
    await useTool(ide, second, "spec-2", "submit_specification", {
      value: specification([{ id: "R1", statement: "Every report has an Export as CSV button" }]),
    });
    run = await complete(ide, second, { outcome: "ready" });
    assert.equal(run.pendingAction?.kind, "user_ask_confirmation");

    // The person asks for a revision; the agent's next pass reads the feedback and acts on it.
    const feedback = "Also cover reports with more than a million rows.";
    run = await answer(person, run, { isConfirmed: false, feedback });
    const third = await claim(ide, run, "agent-a");
    const revised = await useTool<RunContext>(ide, third, "context-3", "get_context");
    assert.equal(revised.feedback.at(-1), feedback);
    await useTool(codex, third, "spec-3", "submit_specification", {
      value: specification([
        { id: "R1", statement: "Every report has an Export as CSV button" },
        { id: "R2", statement: `Revision: ${revised.feedback.at(-1)}` },
      ]),
    });
    run = await complete(codex, third, { outcome: "ready" });
    assert.match(JSON.stringify(run.pendingAction?.request), /more than a million rows/);
    run = await answer(person, run, { isConfirmed: true });
    assert.equal(run.cursor.stageName, "plan");

    // The plan stage sees the committed specification and completes the Run.
    const planner = await claim(codex, run, "agent-a");
    assert.equal(planner.task.agentId, "planner");
    const planContext = await useTool<RunContext>(codex, planner, "context-4", "get_context");
    assert.deepEqual(planContext.artifacts.map((artifact) => artifact.stageName), ["specification"]);
    // Its one task covers both requirements, as the plan's check demands.
    const covering = { ...PLAN, tasks: PLAN.tasks.map((task) => ({ ...task, requirements: ["R1", "R2"] })) };
    await useTool(ide, planner, "plan-4", "submit_plan", { value: covering });
    run = await complete(ide, planner, { outcome: "ready" });
    run = await answer(person, run, { isConfirmed: true });
    assert.equal(run.status, "completed");

    const results = await readResults(person, run.runId);
    assert.match(JSON.stringify(results.specification), /more than a million rows/);
    assert.deepEqual(results.plan, covering);

    // Artifacts and Records outlive the process.
    await Promise.all(clients.splice(0).map(closeClient));
    assert.equal(await served.stop(), 0);
    served = await serve(projectDir);
    const after = await open("/mcp/codex");
    assert.equal(
      (await call<{ run: RunView }>(after, "get_run", { runId: run.runId })).run.status,
      "completed",
    );
    assert.deepEqual(await readResults(after, run.runId), results);
  } finally {
    await Promise.all(clients.map(closeClient));
    await served?.stop();
    await Deno.remove(projectDir, { recursive: true });
  }
});

/** The data of both stages' Artifacts and Records of one Run, checking they agree. */
async function readResults(client: Client, runId: string): Promise<Record<string, unknown>> {
  const data: Record<string, unknown> = {};
  for (const stageName of ["specification", "plan"]) {
    const { artifact } = await call<{ artifact: { runId: string; recordId: string; data: unknown } }>(
      client,
      "get_artifact",
      { flowName: "intent", stageName },
    );
    assert.equal(artifact.runId, runId);
    const { record } = await call<{ record: { runId: string; stageName: string; data: unknown } }>(
      client,
      "get_record",
      { recordId: artifact.recordId },
    );
    assert.equal(record.stageName, stageName);
    assert.deepEqual(record.data, artifact.data);
    data[stageName] = artifact.data;
  }
  return data;
}
