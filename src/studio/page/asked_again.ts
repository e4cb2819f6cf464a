/**
 * Why a Run asks the person again: what happened between their last answer and the action it waits for
 * now, read from its timeline (the feedback of a revision they asked for, each failed check's messages).
 * Pure, so it is tested on its own.
 *
 * @module
 */

import type { RunEvent } from "./types.ts";

/** The reasons the current action comes back, oldest first; empty when nothing sent the Run back. */
export function whyAskedAgain(timeline: RunEvent[]): string[] {
  const requested = timeline.findLastIndex((event) => event.type === "action_requested");
  const answered = timeline.findLastIndex((event, i) => i < requested && event.type === "action_answered");
  if (answered < 0) return [];
  const reasons: string[] = [];
  for (const event of timeline.slice(answered, requested)) {
    const answer = event.answer as { isConfirmed?: boolean; feedback?: unknown } | undefined;
    if (event.type === "action_answered" && answer?.isConfirmed === false && answer.feedback) {
      reasons.push(`Revision asked for: ${answer.feedback}`);
    }
    if (event.type === "check_evaluated" && event.outcome === "invalid" && Array.isArray(event.feedback)) {
      reasons.push(...event.feedback.map((message) => `The check says: ${message}`));
    }
  }
  return reasons;
}
