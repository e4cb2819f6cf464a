/**
 * The soak's short form: 8 concurrent sessions of mixed traffic, bounded by rounds rather than by time, and
 * the bounds a long soak must keep.
 */
import assert from "node:assert/strict";
import { soak } from "./soak.ts";

const SESSIONS = 8;
const ROUNDS = 20;

Deno.test("soak: 8 sessions × 20 rounds of mixed traffic: no unexpected error, every Run sound and counted, no session left open", async () => {
  const figures = await soak({ sessions: SESSIONS, rounds: ROUNDS, seed: 20240601 });
  assert.deepEqual(figures.violations, []);
  assert.ok(
    figures.operations >= SESSIONS * ROUNDS,
    `${figures.operations} calls for ${SESSIONS * ROUNDS} rounds`,
  );
  assert.ok(figures.runsStarted > 0, "the mix started Runs");
  const counted = Object.values(figures.runsAfter).reduce((sum, count) => sum + count, 0);
  assert.equal(counted, figures.runsStarted, "the service holds exactly the Runs the sessions started");
  assert.equal(
    figures.openSessionsAfter,
    1,
    "only the asking session is open once the soak's clients closed",
  );
  // Generous on purpose: a loaded machine must not fail it, a leak of the soak's size in Runs would.
  assert.ok(figures.rssPeakKiB < 512 * 1024, `the service peaked at ${figures.rssPeakKiB} KiB`);
});
