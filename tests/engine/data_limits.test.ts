/**
 * Size bounds on what a Run keeps: the stage state and each agent result, 1 MiB by default, a workflow's own
 * `limits` otherwise. A write past them is INVALID_REQUEST naming the limit, and the Run loses nothing.
 */
import assert from "node:assert/strict";
import { WeftError } from "../../src/errors.ts";
import { openEngine } from "./support.ts";
import { REVIEW_ANSWER, reviewManifest } from "../support/workflows.ts";

const isInvalid = (pattern: RegExp) => (error: unknown) =>
  error instanceof WeftError && error.code === "INVALID_REQUEST" && pattern.test(error.message);

function answerWithTitle(title: string) {
  return [{ ...REVIEW_ANSWER[0], answer: title }, ...REVIEW_ANSWER.slice(1)];
}

Deno.test("a state submission past 1 MiB is refused by default, and the state stays as it was", async () => {
  const engine = await openEngine();
  const run = await engine.startRun({
    flowName: "intent",
    intent: "big",
    source: "agent_ide",
    agentExecutor: "mcp_client",
  });
  const callId = run.pendingAgentCall!.id;
  await engine.claimAgentCall({ runId: run.runId, callId, claimant: "mcp_client" });
  const before = await engine.getRun(run.runId);
  await assert.rejects(
    () =>
      engine.runAgentTool({
        runId: run.runId,
        callId,
        toolId: "submit_specification",
        input: {
          value: { summary: "x".repeat(4 * 1024 * 1024) },
        },
      }),
    isInvalid(
      /stage state would take \d+ bytes, more than this workflow's limit of 1048576 \(limits\.stateBytes\)/,
    ),
  );
  assert.deepEqual(await engine.getRun(run.runId), before, "nothing was written");
  await engine.close();
});

Deno.test("a workflow sets its own bounds in limits; a multi-byte text counts in bytes", async () => {
  const manifest = { ...reviewManifest(), limits: { stateBytes: 2048 } };
  const engine = await openEngine({ manifest });
  const run = await engine.startRun({
    flowName: "review",
    intent: "small",
    source: "cli",
    agentExecutor: "service",
  });
  const ask = { runId: run.runId, actionId: run.pendingAction!.id, source: "cli" as const };
  // 700 characters of three bytes each: under 2048 characters, over 2048 bytes.
  await assert.rejects(
    async () => await engine.answerAsk({ ...ask, answer: answerWithTitle("€".repeat(700)) }),
    isInvalid(/limit of 2048 \(limits\.stateBytes\)/),
  );
  assert.equal((await engine.answerAsk({ ...ask, answer: REVIEW_ANSWER })).status, "waiting");
  await engine.close();
});

Deno.test("an agent result past 1 MiB is refused and the call stays open for a smaller one", async () => {
  const engine = await openEngine();
  const run = await engine.startRun({
    flowName: "intent",
    intent: "huge",
    source: "agent_ide",
    agentExecutor: "mcp_client",
  });
  const callId = run.pendingAgentCall!.id;
  await engine.claimAgentCall({ runId: run.runId, callId, claimant: "mcp_client" });
  await assert.rejects(
    () =>
      engine.completeAgentCall({
        runId: run.runId,
        callId,
        result: { outcome: "ready", padding: "x".repeat(2 * 1024 * 1024) },
      }),
    isInvalid(
      /the result takes \d+ bytes, more than this workflow's limit of 1048576 \(limits\.resultBytes\)/,
    ),
  );
  assert.equal((await engine.getRun(run.runId)).pendingAgentCall?.id, callId);
  await engine.close();
});

Deno.test("limits out of range are loader errors naming the field", async () => {
  const engine = await openEngine({ manifest: { ...reviewManifest(), limits: { stateBytes: 10 } } });
  const view = (await engine.listWorkflows("service")).find((w) => w.name === "review")!;
  assert.equal(view.available, false);
  assert.match(view.reason!, /limits\/stateBytes/);
  await engine.close();
});
