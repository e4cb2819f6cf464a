/** Tool results on the wire: what a client sees of a success and of each kind of failure. */

import assert from "node:assert/strict";
import { errorResult, okResult } from "../../src/mcp/call_result.ts";
import { conflict } from "../../src/errors.ts";

function payloadOf(result: { content: unknown[] }): { code: string; message: string; retryable: boolean } {
  return JSON.parse((result.content[0] as { text: string }).text).error;
}

Deno.test("an unknown failure answers the generic INTERNAL message, never its text or stack", () => {
  const failure = new TypeError("cannot read /home/ada/project/.weft/weft.db: secret detail");
  failure.stack = `TypeError: secret detail\n    at run (file:///home/ada/weft/src/engine/engine.ts:1:1)`;
  const result = errorResult(failure);
  assert.equal(result.isError, true);
  assert.deepEqual(result.structuredContent, { error: payloadOf(result) });
  assert.deepEqual(payloadOf(result), {
    code: "INTERNAL",
    message: "An unexpected internal error occurred; the service log has details.",
    retryable: true,
  });
  const text = JSON.stringify(result);
  for (const revealing of ["secret detail", "/home/ada", "engine.ts", "TypeError"]) {
    assert.ok(!text.includes(revealing), `the reply holds ${revealing}`);
  }
  assert.deepEqual(payloadOf(errorResult("a thrown string")).code, "INTERNAL");
});

Deno.test("a classified failure answers its own code and message; each result carries its value twice", () => {
  const failed = errorResult(conflict("already answered"));
  assert.deepEqual(payloadOf(failed), { code: "CONFLICT", message: "already answered", retryable: false });
  assert.deepEqual(failed.structuredContent, { error: payloadOf(failed) });
  const ok = okResult({ run: { runId: "run_1" } });
  assert.deepEqual(ok.structuredContent, { run: { runId: "run_1" } });
  assert.deepEqual(JSON.parse((ok.content[0] as { text: string }).text), ok.structuredContent);
});
