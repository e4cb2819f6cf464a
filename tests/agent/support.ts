/**
 * Helpers for the agent-task protocol tests: an agent's view of one claimed call, driven through the real
 * MCP tools of whichever session it is handed.
 *
 * @module
 */

import type { RunView } from "../../src/engine/views.ts";
import { call, callError, type ToolClient } from "../support/service.ts";

/** The task fields the tests read. */
export interface Task {
  runId: string;
  callId: string;
  agentId: string;
  tools: { id: string; kind: string }[];
  skills: { name: string; assets: { id: string; name: string }[] }[];
  outputSchema: Record<string, unknown>;
}

/** A claimed agent call as the agent holds it. */
export interface Claimed {
  runId: string;
  callId: string;
  ownerToken: string;
  task: Task;
}

/** Claims the Run's pending agent call for `claimId` through `client`. */
export async function claim(client: ToolClient, run: RunView, claimId: string): Promise<Claimed> {
  const ref = { runId: run.runId, callId: run.pendingAgentCall!.id };
  const claimed = await call<{ task: Task; ownerToken: string }>(client, "claim_agent_call", {
    ...ref,
    claimId,
  });
  return { ...ref, ...claimed };
}

/** The owner reference of a claimed call. */
export function ownerRef(claimed: Claimed): { runId: string; callId: string; ownerToken: string } {
  return { runId: claimed.runId, callId: claimed.callId, ownerToken: claimed.ownerToken };
}

/** Calls one tool of the task and returns its output. */
export async function useTool<T = Record<string, unknown>>(
  client: ToolClient,
  claimed: Claimed,
  toolCallId: string,
  toolId: string,
  input: Record<string, unknown> = {},
): Promise<T> {
  const args = { ...ownerRef(claimed), toolCallId, toolId, input };
  return (await call<{ output: T }>(client, "call_agent_tool", args)).output;
}

/** Calls one tool of the task that must fail, returning the error payload. */
export function toolError(
  client: ToolClient,
  claimed: Claimed,
  toolCallId: string,
  toolId: string,
  input: Record<string, unknown> = {},
): ReturnType<typeof callError> {
  return callError(client, "call_agent_tool", { ...ownerRef(claimed), toolCallId, toolId, input });
}

/** Completes the claimed call and returns the continued Run. */
export async function complete(client: ToolClient, claimed: Claimed, result: unknown): Promise<RunView> {
  return (await call<{ run: RunView }>(client, "complete_agent_call", { ...ownerRef(claimed), result })).run;
}

/** Answers the Run's pending action through `client` and returns the continued Run. */
export async function answer(client: ToolClient, run: RunView, value: unknown): Promise<RunView> {
  const args = { runId: run.runId, actionId: run.pendingAction!.id, answer: value };
  return (await call<{ run: RunView }>(client, "answer_ask", args)).run;
}
