/**
 * The state machine's transitions of an agent step: publishing its agent call, the claim, what the agent's
 * tools submit, and how the call ends. Like every transition they only change the Run in memory and record
 * timeline events; the engine applies them.
 *
 * @module
 */
import { conflict, ERROR_CODES, type ErrorCode, invalid, WeftError } from "../errors.ts";
import type { AgentStep } from "./agent_task.ts";
import { dataLimits, jsonLargerThan } from "./data_limits.ts";
import { newId } from "./ids.ts";
import { compileSchema } from "./json_schema.ts";
import type { RunChange } from "./run_change.ts";
import type { AgentExecutor } from "./views.ts";

/** Publishes a new agent call for the current (agent) step, with a fresh id: the Run waits for it. */
export function openAgentCall(change: RunChange): void {
  const { run, at } = change;
  const step = change.step;
  if (step.kind !== "agent") throw invalid(`Run ${run.runId} is not at an agent step`);
  run.status = "waiting";
  run.pendingAgentCall = { id: newId("call"), agentId: step.agentId, phase: "available", createdAt: at };
  change.record("agent_call_started", { callId: run.pendingAgentCall.id, agentId: step.agentId });
}

/**
 * Marks the pending agent call as claimed by `claimant` (persisted, so a restart interrupts it); `CONFLICT`
 * when the Run's agent steps are another executor's, or another claimant was first.
 */
export function claimAgentCall(change: RunChange, claimant: AgentExecutor): void {
  const { run } = change;
  const pending = run.pendingAgentCall!;
  if (run.agentExecutor !== claimant) {
    throw conflict(
      run.agentExecutor === "service"
        ? `Run ${run.runId} executes its agent steps with the service's model, not an MCP client`
        : `Run ${run.runId} waits for an IDE's agent; the service's model does not take its agent calls`,
    );
  }
  // Two claimants racing for one call both pass the claim table's memory check; the store decides.
  if (pending.phase === "claimed") {
    throw conflict(
      `agent call ${pending.id} of Run ${run.runId} is already claimed by another claimant; only the ` +
        "claimId that claimed it can resume it",
    );
  }
  pending.phase = "claimed";
  change.record("agent_call_claimed", { callId: pending.id });
}

/** Writes what an agent tool submits into the stage state; `INVALID_REQUEST` when the schema rejects it. */
export function submitState(change: RunChange, toolId: string, target: string, value: unknown): void {
  change.writeOrReject(target, value);
  change.record("state_submitted", { callId: change.run.pendingAgentCall!.id, toolId, target });
}

/**
 * Completes the pending agent call with its result (within the workflow's size limit, and checked against
 * the step's output schema) and continues.
 */
export function completeAgentCall(change: RunChange, result: unknown): void {
  const { resultBytes } = dataLimits(change.workflow.manifest);
  const size = jsonLargerThan(result, resultBytes);
  if (size !== false) {
    throw invalid(
      `the result takes ${size} bytes, more than this workflow's limit of ${resultBytes} (limits.resultBytes)`,
    );
  }
  const step = change.step as AgentStep;
  const verdict = compileSchema(step.output.schema)(result);
  if (!verdict.ok) throw outputInvalid(verdict.errors);
  if (step.outputTo !== undefined) {
    const written = change.tryWriteState(step.outputTo, result);
    if (!written.ok) throw outputInvalid(written.errors.map((error) => `stage state ${error}`));
  }
  const outcome = (result as { outcome: string }).outcome;
  const callId = change.run.pendingAgentCall!.id;
  delete change.run.pendingAgentCall;
  change.run.status = "running";
  change.record("agent_call_completed", { callId, outcome });
  change.advance(outcome);
}

/** Fails the Run of the pending agent call with the agent's message, keeping earlier effects. */
export function failAgentCall(
  change: RunChange,
  message: string,
  code: ErrorCode = "AGENT_CALL_FAILED",
): void {
  change.record("agent_call_failed", { callId: change.run.pendingAgentCall!.id, code });
  change.fail(code, message, ERROR_CODES[code].retryable);
}

function outputInvalid(errors: string[]): WeftError {
  return new WeftError(
    "AGENT_OUTPUT_INVALID",
    `the result does not match the output schema: ${errors.join("; ")}`,
  );
}
