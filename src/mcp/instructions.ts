/**
 * The server `instructions` each endpoint sends at initialization: the rules a client must follow to drive
 * weft correctly, said once here instead of in every tool, with the full text one resource away.
 *
 * @module
 */

import type { Endpoint } from "./endpoints.ts";
import { PROTOCOL_DOC_URI } from "./protocol_doc.ts";

const WORKFLOW_RULES = [
  `weft runs explicit workflows; every rule is in the resource ${PROTOCOL_DOC_URI}.`,
  "- flow creates a Run and is not idempotent: when a result is uncertain, look with get_run or list_runs; " +
  "never call flow again, nor to advance a Run.",
  "- Follow the Run each tool returns: status, and when waiting its pendingAction, pendingAgentCall or " +
  "pendingCommand (the service runs it; if untrusted, the person runs weft trust, then weft retry).",
  "- A pendingAction is the person's: call interact, or show them its request and send their exact answer " +
  "with answer_ask. Closing the form keeps the Run waiting. Never answer, skip or confirm for them.",
  "- To wait for a Run, subscribe to weft://runs/{runId} and continue when notified; do not poll or ask again.",
  "- Errors are isError results with { error: { code, message, retryable } }. Keep tokens secret.",
];

const AGENT_RULES = [
  "- A pendingAgentCall is yours: claim_agent_call with callId = its id and a stable, unique claimId (the " +
  "same claimId resumes after a reconnect); keep the ownerToken private.",
  "- Call the task's tools one at a time, a fresh toolCallId each; retry with the same toolCallId and input. " +
  "Read assets by declared id only.",
  "- When your tool calls have returned, complete_agent_call with raw JSON matching task.outputSchema (or " +
  "fail_agent_call), then follow the Run it returns.",
  "- Cancellation ends your ownership; a restart interrupts active tasks (RUN_INTERRUPTED).",
  "- You answer and cancel only Runs started here; one started in the terminal or Studio is the person's there " +
  '(NOT_ALLOWED). An action with answerFrom "person" takes no answer_ask: use interact, or pass on its message.',
];

// Joined once: every session's server keeps the text it was given for the session's life.
const FOR_AGENTS = [...WORKFLOW_RULES, ...AGENT_RULES].join("\n");
const FOR_OTHERS = WORKFLOW_RULES.join("\n");

/** The instructions for one endpoint. */
export function instructionsFor(endpoint: Endpoint): string {
  return endpoint.agentExecutor === "mcp_client" ? FOR_AGENTS : FOR_OTHERS;
}
