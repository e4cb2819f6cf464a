/**
 * The agent side of the embedded `intent` workflow: the specification and plan an agent submits, and one
 * whole handoff (claim, read the context, submit, complete) over whatever way a suite makes its tool calls.
 *
 * @module
 */

import type { RunView } from "../../src/engine/views.ts";

/** A requirement of a specification; each gets the same acceptance criterion. */
export interface Requirement {
  id: string;
  statement: string;
}

/** A specification the intent workflow's schema and check accept. */
export function specification(
  requirements: Requirement[] = [{ id: "R1", statement: "Every report has an Export button" }],
  summary = "Export reports as CSV files.",
) {
  return {
    summary,
    goals: ["Users can export any report as CSV"],
    requirements: requirements.map((requirement) => ({ ...requirement, acceptance: ["a test proves it"] })),
    constraints: ["no new dependency"],
  };
}

/** A plan the intent workflow's schema and check accept; `description` is its one task's. */
export function plan(summary = "Add a CSV serializer and an export button.", description = "serializer") {
  return {
    summary,
    tasks: [{
      id: "T1",
      title: "CSV",
      description,
      requirements: ["R1"],
      files: ["src/csv.ts"],
      tests: ["tests/csv_test.ts"],
    }],
    risks: [{ risk: "large reports", mitigation: "stream rows" }],
  };
}

/** The specification most suites submit. */
export const SPECIFICATION = specification();

/** The plan most suites submit. */
export const PLAN = plan();

/** Makes one tool call; a result that is not `ok` stops the handoff there. */
export type ToolCaller = (
  name: string,
  args: Record<string, unknown>,
) => Promise<{ ok: boolean; value?: unknown }>;

/** What one handoff submits, and to which intent stage. */
export interface Submission {
  stage: "specification" | "plan";
  document: unknown;
  claimId: string;
  /** Called once the submission is accepted, before completion (a suite that checks commits records it). */
  onSubmitted?: () => void;
}

/**
 * One handoff of the Run's pending agent call: claim, `get_context`, the stage's submit tool, complete as
 * ready. Resolves with the completion's result, or undefined as soon as a call is not `ok`.
 */
export async function handOff(send: ToolCaller, run: RunView, submission: Submission): Promise<unknown> {
  const ref = { runId: run.runId, callId: run.pendingAgentCall!.id };
  const claimed = await send("claim_agent_call", { ...ref, claimId: submission.claimId });
  if (!claimed.ok) return undefined;
  const owner = { ...ref, ownerToken: (claimed.value as { ownerToken: string }).ownerToken };
  const context = await send("call_agent_tool", {
    ...owner,
    toolCallId: "ctx",
    toolId: "get_context",
    input: {},
  });
  if (!context.ok) return undefined;
  const submitted = await send("call_agent_tool", {
    ...owner,
    toolCallId: "submit",
    toolId: submission.stage === "plan" ? "submit_plan" : "submit_specification",
    input: { value: submission.document },
  });
  if (!submitted.ok) return undefined;
  submission.onSubmitted?.();
  const completed = await send("complete_agent_call", { ...owner, result: { outcome: "ready" } });
  return completed.ok ? completed.value : undefined;
}
