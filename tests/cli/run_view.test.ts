/**
 * The step a failed Run's view ends with depends on why it failed: `weft run RUN` is the command that was
 * just run, so it is never the advice.
 */

import assert from "node:assert/strict";
import { nextStep } from "../../src/cli/run_views/run_view.ts";
import { NO_CONTEXT } from "../../src/cli/run_views/run_context.ts";
import type { RunView } from "../../src/engine/views.ts";
import type { ErrorCode } from "../../src/errors.ts";

/** A stream that is no terminal, so the hint carries no colour whatever runs the test. */
const PLAIN = { isTerminal: () => false } as unknown as typeof Deno.stdout;

function failedWith(code: ErrorCode): RunView {
  return {
    runId: "run_1",
    flowName: "release-note",
    status: "failed",
    lastError: { code, message: "it failed", retryable: false },
  } as unknown as RunView;
}

Deno.test("a failed Run's next step follows from its failure, never `weft run RUN`", () => {
  const expected: [ErrorCode, string][] = [
    ["MODEL_UNAVAILABLE", "resume it with: weft retry run_1"],
    ["RUN_INTERRUPTED", "resume it with: weft retry run_1"],
    ["MODEL_REQUEST_FAILED", "check the model's configuration with: weft doctor"],
    ["TOOL_FAILED", "see what the service saw: weft logs run_1"],
    ["BUDGET_EXCEEDED", "start again with: weft flow release-note --intent …"],
    ["AGENT_OUTPUT_INVALID", "start again with: weft flow release-note --intent …"],
  ];
  for (const [code, step] of expected) {
    assert.equal(nextStep(failedWith(code), NO_CONTEXT, PLAIN), step, code);
  }
});

Deno.test("a completed Run whose workflow suggests what comes next says how to start it", () => {
  const intent = {
    runId: "run_7",
    flowName: "intent",
    status: "completed",
    next: { flowName: "deliver", intent: "run_7", say: "deliver its plan, task by task, with" },
  } as unknown as RunView;
  assert.equal(
    nextStep(intent, NO_CONTEXT, PLAIN),
    "deliver its plan, task by task, with: weft flow deliver --intent run_7",
  );
  const { next: _, ...plain } = intent;
  assert.equal(nextStep(plain, NO_CONTEXT, PLAIN), "see what it committed: weft artifacts --flow intent");
});
