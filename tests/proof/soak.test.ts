/** The soak's short form: 8 concurrent sessions for a few seconds with no unexpected error. */
import assert from "node:assert/strict";
import { soak } from "./soak.ts";

Deno.test("soak: 8 sessions of mixed traffic for 8 s without an unexpected error", async () => {
  const figures = await soak({ sessions: 8, seconds: 8, seed: 20240601 });
  assert.deepEqual(figures.violations, []);
  assert.ok(figures.operations > 0);
  assert.ok(figures.rssStartKiB > 0 && figures.rssEndKiB > 0);
});
