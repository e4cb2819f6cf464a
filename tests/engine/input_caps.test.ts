/**
 * The size caps on what people and agents type: an intent up to 20,000 characters, an answer or a
 * confirmation's feedback up to 10,000. One character more is refused as INVALID_REQUEST and changes nothing.
 */

import assert from "node:assert/strict";
import { z } from "zod";
import { WeftError } from "../../src/errors.ts";
import { MAX_ANSWER_CHARS } from "../../src/engine/answers.ts";
import { MAX_INTENT_CHARS } from "../../src/engine/data_limits.ts";
import { flowTool } from "../../src/mcp/tools/workflow.ts";
import { openEngine } from "./support.ts";
import { REVIEW_ANSWER } from "../support/workflows.ts";

function refusedAsTooLong(error: unknown): boolean {
  return error instanceof WeftError && error.code === "INVALID_REQUEST" && /longer than/.test(error.message);
}

Deno.test("intent cap: 20,000 characters start a Run, 20,001 are refused and start none", async () => {
  assert.equal(MAX_INTENT_CHARS, 20_000);
  const engine = await openEngine();
  try {
    const run = await engine.startRun({
      flowName: "review",
      intent: "x".repeat(20_000),
      source: "cli",
      agentExecutor: "service",
    });
    assert.equal(run.status, "waiting");
    await assert.rejects(
      async () =>
        await engine.startRun({
          flowName: "review",
          intent: "x".repeat(20_001),
          source: "cli",
          agentExecutor: "service",
        }),
      refusedAsTooLong,
    );
    assert.equal((await engine.listRuns({})).runs.length, 1, "the refused intent started no Run");
  } finally {
    await engine.close();
  }
});

Deno.test("intent cap: the flow tool tells clients the 20,000-character limit in its input schema", () => {
  const schema = z.toJSONSchema(flowTool.input) as unknown as {
    properties: { intent: { maxLength?: number } };
  };
  assert.equal(schema.properties.intent.maxLength, 20_000);
});

Deno.test("answer cap: a written answer of 10,000 characters is kept, 10,001 are refused and answer nothing", async () => {
  assert.equal(MAX_ANSWER_CHARS, 10_000);
  const engine = await openEngine();
  try {
    const run = await engine.startRun({
      flowName: "review",
      intent: "cap",
      source: "cli",
      agentExecutor: "service",
    });
    const ask = { runId: run.runId, actionId: run.pendingAction!.id, source: "cli" as const };
    const withTitle = (title: string) => [{ ...REVIEW_ANSWER[0], answer: title }, ...REVIEW_ANSWER.slice(1)];
    await assert.rejects(
      async () => await engine.answerAsk({ ...ask, answer: withTitle("t".repeat(10_001)) }),
      refusedAsTooLong,
    );
    assert.equal(
      (await engine.getRun(run.runId)).pendingAction?.id,
      ask.actionId,
      "the questions still wait",
    );
    const answered = await engine.answerAsk({ ...ask, answer: withTitle("t".repeat(10_000)) });
    assert.equal(answered.pendingAction?.kind, "user_ask_confirmation");
  } finally {
    await engine.close();
  }
});

Deno.test("feedback cap: a revision's feedback of 10,000 characters is kept, 10,001 are refused", async () => {
  const engine = await openEngine();
  try {
    const run = await engine.startRun({
      flowName: "review",
      intent: "cap",
      source: "cli",
      agentExecutor: "service",
    });
    const confirm = await engine.answerAsk({
      runId: run.runId,
      actionId: run.pendingAction!.id,
      answer: REVIEW_ANSWER,
      source: "cli",
    });
    const ask = { runId: run.runId, actionId: confirm.pendingAction!.id, source: "cli" as const };
    await assert.rejects(
      async () =>
        await engine.answerAsk({ ...ask, answer: { isConfirmed: false, feedback: "f".repeat(10_001) } }),
      refusedAsTooLong,
    );
    assert.equal(
      (await engine.getRun(run.runId)).pendingAction?.id,
      ask.actionId,
      "the confirmation still waits",
    );
    const revised = await engine.answerAsk({
      ...ask,
      answer: { isConfirmed: false, feedback: "f".repeat(10_000) },
    });
    assert.notEqual(revised.pendingAction?.id, ask.actionId, "the revision was taken");
  } finally {
    await engine.close();
  }
});
