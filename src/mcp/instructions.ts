/**
 * The server `instructions` each endpoint sends at initialization: a few lines that teach a client how to
 * drive weft correctly.
 *
 * @module
 */

import type { Endpoint } from "./endpoints.ts";

const WORKFLOW_RULES = [
  "weft runs explicit workflows. Start one with `flow` (not idempotent: when unsure whether it worked, " +
  "call `list_runs` or `get_run` instead of calling `flow` again).",
  "Every tool returns the current Run; follow its `status`, `pendingAction` and `pendingAgentCall`.",
  "A pendingAction is for the person: call `interact`, or show the request and submit their exact answer " +
  "with `answer_ask`. Never answer or confirm on the person's behalf.",
];

const AGENT_RULES = [
  "A pendingAgentCall is work for you: `claim_agent_call` with its id and a stable claimId you keep, " +
  "keep the ownerToken private, call the task's tools one at a time with a fresh toolCallId each " +
  "(retry with the same id), then `complete_agent_call` with raw JSON matching the task's outputSchema.",
  "Continue from the Run that completion returns; never call `flow` to advance.",
];

/** The instructions for one endpoint. */
export function instructionsFor(endpoint: Endpoint): string {
  return [...WORKFLOW_RULES, ...(endpoint.agentTasks ? AGENT_RULES : [])].join("\n");
}
