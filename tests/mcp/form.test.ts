/**
 * A pending action as an MCP form: one field per question (choices, written text, skip), a decision and
 * feedback for a confirmation, and the person's reply read back as the answer `answer_ask` takes.
 */

import assert from "node:assert/strict";
import { actionForm } from "../../src/mcp/elicitation/form.ts";
import { endpointAt } from "../../src/mcp/endpoints.ts";
import { MAX_ANSWER_CHARS } from "../../src/engine/answers.ts";
import { WeftError } from "../../src/errors.ts";
import { openEngine } from "../engine/support.ts";
import { REVIEW_ANSWER } from "../support/workflows.ts";

const IDE = endpointAt("/mcp")!;
const CODEX = endpointAt("/mcp/codex")!;

function refused(pattern: RegExp) {
  return (error: unknown) =>
    error instanceof WeftError && error.code === "INVALID_REQUEST" && pattern.test(error.message);
}

Deno.test("form: each question becomes a field; the reply reads back as the questions' answer", async () => {
  const engine = await openEngine();
  try {
    const run = await engine.startRun({
      flowName: "review",
      intent: "name it",
      source: "agent_ide",
      agentExecutor: "mcp_client",
    });
    const form = actionForm(run, run.pendingAction!, IDE);
    assert.match(form.message, /^weft \(review\): Answer 3 questions to continue/);
    const { properties, required } = form.requestedSchema;
    assert.deepEqual(Object.keys(properties), ["title", "color", "notes"]);
    assert.deepEqual(required, ["title", "color"], "the skippable question is not required");
    assert.equal(properties.title.type, "string");
    assert.equal((properties.title as { maxLength?: number }).maxLength, MAX_ANSWER_CHARS);
    assert.deepEqual((properties.color as { oneOf?: unknown[] }).oneOf, [
      { const: "red", title: "Red" },
      { const: "blue", title: "Blue" },
    ]);
    assert.match(String((properties.notes as { description?: string }).description), /Leave empty to skip/);

    assert.deepEqual(form.read({ title: "A fine title", color: "red", notes: "" }), [
      { questionId: "title", isSkipped: false, answer: "A fine title" },
      { questionId: "color", isSkipped: false, answer: "red" },
      { questionId: "notes", isSkipped: true },
    ]);
    assert.throws(() => form.read({ title: "T", color: "green" }), refused(/needs one of its choices/));
    assert.throws(() => form.read({ color: "red" }), refused(/needs an answer/));
    assert.throws(() => form.read(undefined), refused(/needs/));
  } finally {
    await engine.close();
  }
});

Deno.test("form: a confirmation shows its context as text and reads Confirm, or Revise with feedback", async () => {
  const engine = await openEngine();
  try {
    const started = await engine.startRun({
      flowName: "review",
      intent: "name it",
      source: "cli",
      agentExecutor: "service",
    });
    const run = await engine.answerAsk({
      runId: started.runId,
      actionId: started.pendingAction!.id,
      answer: REVIEW_ANSWER,
      source: "cli",
    });
    const form = actionForm(run, run.pendingAction!, IDE);
    assert.match(form.message, /^weft \(review\): Review this to continue/);
    assert.match(form.message, /- Title: A fine title/);
    assert.deepEqual(form.requestedSchema.required, ["decision"]);
    assert.deepEqual(form.read({ decision: "confirm" }), { isConfirmed: true });
    assert.deepEqual(form.read({ decision: "revise", feedback: "  shorter  " }), {
      isConfirmed: false,
      feedback: "shorter",
    });
    assert.throws(() => form.read({ decision: "revise", feedback: " " }), refused(/Revise needs feedback/));
    assert.throws(() => form.read({ decision: "maybe" }), refused(/Confirm or Revise/));
  } finally {
    await engine.close();
  }
});

Deno.test("form: on Codex the message names weft and the flow first", async () => {
  const engine = await openEngine();
  try {
    const run = await engine.startRun({
      flowName: "review",
      intent: "name it",
      source: "agent_ide",
      agentExecutor: "mcp_client",
    });
    assert.match(actionForm(run, run.pendingAction!, CODEX).message, /^weft · review — Answer 3 questions/);
  } finally {
    await engine.close();
  }
});
