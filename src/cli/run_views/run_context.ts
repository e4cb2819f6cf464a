/**
 * What the terminal says around a Run besides the Run itself: why it asks a person again (the messages of
 * the check that sent it back, the revision someone asked for), and whether its workflow can start again
 * from here. Read from the service, so `attach`, `flow`, `run` and `cancel` say the same thing.
 *
 * @module
 */

import type { WeftClient } from "../../client/weft_client.ts";
import type { RunEventView, RunView, WorkflowView } from "../../client/views.ts";
import { WeftError } from "../../errors.ts";
import { CommandFailure } from "../command_line/failure.ts";
import { indent, paint, type Stream } from "../terminal/format.ts";

/** The context of a Run as the terminal shows it. */
export interface RunContext {
  /** Why the action the Run waits for comes back; empty when nothing sent it back. */
  reasons: string[];
  /** Whether `weft flow` can start this workflow again here (an agent workflow needs the IDE or a model). */
  startableHere: boolean;
}

/** Nothing to add: what a command shows when it does not look further (e.g. under `--json`). */
export const NO_CONTEXT: RunContext = { reasons: [], startableHere: true };

/** Looks up the context of `run`; `timeline` when the caller has it already. */
export async function runContext(
  client: WeftClient,
  run: RunView,
  timeline?: RunEventView[],
): Promise<RunContext> {
  let reasons: string[] = [];
  if (run.status === "waiting" && run.pendingAction) {
    timeline ??= (await client.call<{ timeline?: RunEventView[] }>("get_run", {
      runId: run.runId,
      timeline: true,
    })).timeline ?? [];
    reasons = whyAskedAgain(timeline);
  }
  const startableHere = run.status === "cancelled"
    ? (await findWorkflow(client, run.flowName))?.ready === true
    : true;
  return { reasons, startableHere };
}

/** The workflow called `name` as the service lists it for the terminal, if there is one. */
export async function findWorkflow(client: WeftClient, name: string): Promise<WorkflowView | undefined> {
  const { workflows } = await client.call<{ workflows: WorkflowView[] }>("list_workflows");
  return workflows.find((workflow) => workflow.name === name);
}

/**
 * What led from the last answer to the action the Run waits for now: a revision's feedback and every failed
 * check's messages, oldest first. Empty when nothing sent the Run back.
 */
export function whyAskedAgain(timeline: RunEventView[]): string[] {
  const requested = timeline.findLastIndex((event) => event.type === "action_requested");
  const answered = timeline.findLastIndex((event, i) => i < requested && event.type === "action_answered");
  if (answered < 0) return [];
  return timeline.slice(answered, requested).flatMap((event) => {
    if (event.type === "action_answered") {
      const answer = event.answer as { isConfirmed?: boolean; feedback?: string } | undefined;
      return answer?.isConfirmed === false && answer.feedback
        ? [`revision requested: ${answer.feedback}`]
        : [];
    }
    if (event.type === "check_evaluated" && event.outcome === "invalid") {
      return ((event.feedback as string[] | undefined) ?? []).map((message) => `check: ${message}`);
    }
    return [];
  });
}

/** The reasons as a block to show above the repeated question; empty when there are none. */
export function describeReasons(reasons: string[], stream: Stream = Deno.stdout): string {
  if (!reasons.length) return "";
  const items = reasons.map((reason) => {
    const [first, ...rest] = reason.split("\n");
    return [`• ${first}`, ...rest.map((line) => `  ${line}`)].join("\n");
  });
  return `${paint("yellow", "This comes back because:", stream)}\n${indent(items.join("\n"))}`;
}

/**
 * A failure to start a Run blamed on its true cause when the workflow `name` does not load: the generic fix
 * ("check the arguments") would send the person the wrong way. Other errors pass as they are. (Runs already
 * started are driven by their stored version, so a broken file never blocks their answers.)
 */
export async function blameBrokenWorkflow(
  client: WeftClient,
  name: string,
  error: unknown,
): Promise<unknown> {
  if (!(error instanceof WeftError) || error.code !== "INVALID_REQUEST") return error;
  const workflow = await findWorkflow(client, name).catch(() => undefined);
  if (workflow?.available !== false) return error;
  return new CommandFailure(
    error.code,
    error.message,
    `fix workflow "${name}" as \`weft flows\` shows (file and JSON pointer of each problem); ` +
      "edits to workflows/ apply without a restart",
  );
}
