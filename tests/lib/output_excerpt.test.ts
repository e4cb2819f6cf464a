/**
 * The useful part of a failing verify's output: what a runner says failed and its counts, not its timings.
 * The samples are real outputs of `node --test` (TAP and spec reporters), `pytest` and `deno test`.
 */
import assert from "node:assert/strict";
import { EXCERPT_LIMITS, outputExcerpt } from "../../src/lib/output_excerpt.ts";

const sample = (name: string) => Deno.readTextFileSync(new URL(`./samples/${name}.txt`, import.meta.url));

function fits(excerpt: string) {
  assert.ok(excerpt.split("\n").length <= EXCERPT_LIMITS.lines, excerpt);
  assert.ok(excerpt.length <= EXCERPT_LIMITS.chars, excerpt);
}

Deno.test("output excerpt: node --test's TAP shows the failing test, its assertion and the counts, not duration_ms", () => {
  const excerpt = outputExcerpt(sample("node_tap"), "");
  assert.match(excerpt, /^not ok 1 - slugify lowercases/);
  assert.match(excerpt, /Expected values to be strictly equal/);
  assert.match(excerpt, /- 'hello'/);
  assert.match(excerpt, /# fail 1/);
  assert.doesNotMatch(excerpt, /duration_ms|Test\.runInAsyncScope|# cancelled/);
  fits(excerpt);
});

Deno.test("output excerpt: node --test's spec reporter shows each failure once, without its stack", () => {
  const excerpt = outputExcerpt(sample("node_spec"), "");
  assert.match(excerpt, /✖ slugify lowercases/);
  assert.match(excerpt, /AssertionError \[ERR_ASSERTION\]/);
  assert.equal(excerpt.match(/✖ slugify lowercases/g)?.length, 1);
  assert.match(excerpt, /ℹ fail 1/);
  assert.doesNotMatch(excerpt, /node:internal|duration_ms/);
  fits(excerpt);
});

Deno.test("output excerpt: pytest's explanation and summary; deno test's error and its counts", () => {
  const pytest = outputExcerpt(sample("pytest"), "");
  assert.match(pytest, /E\s+AssertionError: assert 'Hello' == 'hello'/);
  assert.match(pytest, /FAILED test_x\.py::test_lower/);
  assert.match(pytest, /1 failed, 1 passed/);
  fits(pytest);
  const deno = outputExcerpt("", sample("deno_test"));
  assert.match(deno, /slug lowercases \.\.\. FAILED/);
  assert.match(deno, /error: Error: expected hello, got Hello/);
  assert.match(deno, /FAILED \| 1 passed \| 1 failed/);
  fits(deno);
});

Deno.test("output excerpt: output no runner wrote ends in its last lines, stderr after stdout, colour removed", () => {
  const lines = Array.from({ length: 100 }, (_, i) => `step ${i}`).join("\n");
  const excerpt = outputExcerpt(lines, "\x1b[31mcould not build\x1b[0m\n");
  assert.equal(excerpt.split("\n").at(-1), "could not build");
  assert.equal(excerpt.split("\n").length, EXCERPT_LIMITS.lines);
  assert.match(excerpt, /^step 77$/m);
  assert.equal(outputExcerpt("", ""), "");
});

Deno.test("output excerpt: a flood of failures stays within its bound and keeps the counts", () => {
  const failures = Array.from(
    { length: 500 },
    (_, i) => `not ok ${i} - case ${i}\n  error: ${"x".repeat(300)}`,
  );
  const excerpt = outputExcerpt([...failures, "# tests 500", "# fail 500"].join("\n"), "");
  fits(excerpt);
  assert.match(excerpt, /^not ok 0 - case 0/);
  assert.match(excerpt, /# fail 500$/);
});
