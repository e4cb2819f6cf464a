/** Durations as a person writes them: the forms `--idle-exit` and `service.idleExit` accept. */
import assert from "node:assert/strict";
import { formatDuration, parseDuration } from "../../src/lib/duration.ts";

Deno.test("durations: 0, bare seconds and whole numbers with s, m or h are accepted", () => {
  assert.equal(parseDuration("0"), 0);
  assert.equal(parseDuration("90"), 90_000);
  assert.equal(parseDuration("90s"), 90_000);
  assert.equal(parseDuration("30m"), 1_800_000);
  assert.equal(parseDuration("2h"), 7_200_000);
});

Deno.test("durations: anything else is refused, not guessed", () => {
  for (const text of ["", "abc", "5x", "-1", "1.5m", "30 m", "1h30m", "m", "1e3", "0x10", "1234567890"]) {
    assert.equal(parseDuration(text), undefined, text);
  }
});

Deno.test("durations are written back in the largest whole unit", () => {
  assert.equal(formatDuration(1_800_000), "30m");
  assert.equal(formatDuration(7_200_000), "2h");
  assert.equal(formatDuration(90_000), "90s");
  assert.equal(formatDuration(2_000), "2s");
});
