/** Why Studio says a question comes back: the reasons it reads from a Run's timeline, on their own. */

import assert from "node:assert/strict";
import { whyAskedAgain } from "../../src/studio/page/asked_again.ts";
import type { RunEvent } from "../../src/studio/page/types.ts";

function events(...list: Partial<RunEvent>[]): RunEvent[] {
  return list.map((event, seq) => ({ seq, at: "", stageName: "s", stepName: "x", type: "", ...event }));
}

Deno.test("asked again: a first question has no reason", () => {
  assert.deepEqual(whyAskedAgain(events({ type: "run_created" }, { type: "action_requested" })), []);
});

Deno.test("asked again: a revision's feedback and every failed check since the last answer, in order", () => {
  const timeline = events(
    { type: "action_requested" },
    { type: "action_answered", answer: [] },
    { type: "check_evaluated", outcome: "invalid", feedback: ["title too short"] },
    { type: "action_requested" },
    { type: "action_answered", answer: { isConfirmed: false, feedback: "Shorter" } },
    { type: "check_evaluated", outcome: "valid", feedback: [] },
    { type: "check_evaluated", outcome: "invalid", feedback: ["one", "two"] },
    { type: "action_requested" },
  );
  assert.deepEqual(whyAskedAgain(timeline), [
    "Revision asked for: Shorter",
    "The check says: one",
    "The check says: two",
  ]);
});

Deno.test("asked again: a confirmation after a plain answer has no reason", () => {
  const timeline = events(
    { type: "action_requested" },
    { type: "action_answered", answer: [] },
    { type: "check_evaluated", outcome: "valid", feedback: [] },
    { type: "action_requested" },
  );
  assert.deepEqual(whyAskedAgain(timeline), []);
});
