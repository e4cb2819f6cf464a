/** The fuzzer's short form: a few hundred seeded hostile requests, then a valid one. */
import assert from "node:assert/strict";
import { fuzz } from "./fuzz.ts";

Deno.test("fuzz: 300 hostile requests get classified or protocol errors, leak nothing, crash nothing", async () => {
  const figures = await fuzz({ inputs: 300, seed: 20240601 });
  assert.deepEqual(figures.violations, []);
  assert.equal(figures.inputs, 300);
  assert.ok((figures.byAnswer.INVALID_REQUEST ?? 0) > 0, "tool-level validation was reached");
  assert.ok((figures.byStatus["413"] ?? 0) > 0 || (figures.byKind.oversize ?? 0) === 0);
});
