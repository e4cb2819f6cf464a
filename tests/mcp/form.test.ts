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
import { unifiedDiff } from "../../src/lib/unified_diff.ts";
import type { PendingActionView, RunView } from "../../src/engine/views.ts";

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

/** A Run of `flowName` waiting for `request`, as a view (the form reads nothing else). */
function waiting(flowName: string, kind: PendingActionView["kind"], request: unknown): RunView {
  return {
    runId: "run_1",
    flowName,
    intent: "run_0",
    title: "Slugify strings",
    status: "waiting",
    execution: { source: "agent_ide", agentExecutor: "mcp_client" },
    cursor: { stageName: "tasks", stepName: "review" },
    pendingAction: { id: "act_1", kind, request, createdAt: "" },
    createdAt: "",
    updatedAt: "",
  };
}

/** How long an IDE form's review may be: a few lines the person reads before the buttons. */
const REVIEW_FORM_CHARS = 2500;

Deno.test("form: a review is a compact summary that names the task, the files and where to read the diff", () => {
  const files = Array.from({ length: 40 }, (_, i) => ({ path: `src/module_${i}.ts`, status: "modified" }));
  const diff = files.map(({ path }) => unifiedDiff(path, "a\n".repeat(200), "b\n".repeat(200), 1 << 20).diff)
    .join("");
  const run = waiting("deliver", "user_ask_confirmation", {
    title: "Review the task's changes",
    item: {
      id: "T1",
      title: "Slugify",
      attempt: 2,
      description: "x".repeat(5000),
      requirements: [{ id: "R1", statement: "Slugs are lowercase", acceptance: ["a test proves it"] }],
    },
    evidence: {
      summary: "Rewrote the slug module. ".repeat(200),
      verify: {
        run: ["npm", "test"],
        outcome: "failed",
        exitCode: 1,
        durationMs: 300,
        excerpt: "not ok 1 - slug\n  error: 'x'\n# fail 1\n# pass 9\n# tests 10",
      },
      changes: { files, diff, cutBytes: 0 },
    },
  });
  const form = actionForm(run, run.pendingAction!, IDE);
  assert.ok(form.message.length <= REVIEW_FORM_CHARS, `${form.message.length} characters`);
  assert.match(
    form.message,
    /^weft \(deliver\): Review the task's changes\. Review this to continue “Slugify strings”/,
  );
  assert.match(form.message, /Task T1 — Slugify \(attempt 2\)/);
  assert.match(form.message, /Serves R1: Slugs are lowercase — accepted when: a test proves it/);
  assert.match(form.message, /Verify: failed \(exit 1\) — npm test\n {2}not ok 1 - slug/);
  assert.match(
    form.message,
    /Files changed \(40\): src\/module_0\.ts \(modified, \+200 −200\), .*, and 32 more/,
  );
  assert.match(form.message, /`weft attach run_1` in a terminal, or Studio \(`weft studio`/);
  assert.doesNotMatch(form.message, /xxxxx|cutBytes|Cut bytes|\n[+-]b/);
});

Deno.test("form: a revision's confirmation says what its edit changes, and 'no difference' where there is none", () => {
  const before = { title: "Notes", items: Array.from({ length: 100 }, (_, i) => `item ${i}`) };
  const data = { ...before, title: "Better notes" };
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const context = (after: unknown) => ({
    artifactId: "art_1",
    path: "docs/notes.md",
    fromRevision: 3,
    markdownDiff: "",
    dataDiff: unifiedDiff("data.json", json(before), json(after), 1 << 20).diff,
    before,
    data: after,
  });
  const changed = waiting("notes", "user_ask_confirmation", { context: context(data) });
  const message = actionForm(changed, changed.pendingAction!, IDE).message;
  assert.match(message, /Your edit of docs\/notes\.md, brought back into revision 3/);
  assert.match(
    message,
    /The Markdown: no difference\. The data: \+1 −1 lines\.\n {2}- "title": "Notes",\n {2}\+ "title": "Better notes",/,
  );
  assert.doesNotMatch(message, /item 50/, "not the whole before and after");
  const same = waiting("notes", "user_ask_confirmation", { context: context(before) });
  assert.match(
    actionForm(same, same.pendingAction!, IDE).message,
    /The Markdown: no difference\. The data: no difference\./,
  );
});

Deno.test("form: 'Verify keeps failing' names the task and what failed; a changes context is summarized too", () => {
  const decide = waiting("deliver", "user_ask_questions", {
    questions: [{
      id: "decision",
      question: "Retry, skip or stop?",
      options: [{ id: "retry", label: "Retry" }],
    }],
    title: "Verify keeps failing",
    item: { id: "T2", title: "Export", attempt: 3 },
    evidence: {
      verify: { outcome: "failed", exitCode: 1, durationMs: 9, excerpt: "not ok 1 - exports\n# fail 1" },
    },
  });
  const message = actionForm(decide, decide.pendingAction!, IDE).message;
  assert.match(message, /^weft \(deliver\): Verify keeps failing\. Answer one question to continue/);
  assert.match(message, /Task T2 — Export \(attempt 3\)\nVerify: failed \(exit 1\)\n {2}not ok 1 - exports/);
  const diff = unifiedDiff("src/a.ts", "old\n", "new\n", 1 << 20).diff;
  const confirm = waiting("edit", "user_ask_confirmation", {
    context: { files: [{ path: "src/a.ts", status: "modified" }], diff, cutBytes: 0 },
  });
  const shown = actionForm(confirm, confirm.pendingAction!, IDE).message;
  assert.match(shown, /Files changed \(1\): src\/a\.ts \(modified, \+1 −1\)/);
  assert.doesNotMatch(shown, /Cut bytes|cutBytes/);
});
