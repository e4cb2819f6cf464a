/**
 * A Run as people read it in the terminal, the next step it asks of them, and the exit code it stands for.
 *
 * @module
 */

import type { RunView } from "../../engine/views.ts";
import { EXIT } from "../exit_codes.ts";
import { hint, paint, relativeTime, statusTone, type Stream, truncate } from "../format.ts";
import { NO_CONTEXT, type RunContext } from "./run_context.ts";

/** The exit code of a command whose result is this Run: a Run left waiting or running is not a failure. */
export function exitCodeFor(run: RunView): number {
  if (run.status === "failed") return EXIT.RUN_FAILED;
  if (run.status === "cancelled") return EXIT.RUN_CANCELLED;
  return EXIT.OK;
}

/** One line saying what the Run waits for, or undefined when it waits for nothing. */
export function waitingFor(run: RunView): string | undefined {
  if (run.status !== "waiting") return undefined;
  const action = run.pendingAction;
  if (action?.kind === "user_ask_questions") {
    const count = (action.request as { questions?: unknown[] })?.questions?.length ?? 0;
    return `your answer${count === 1 ? "" : "s"} to ${count} question${count === 1 ? "" : "s"}`;
  }
  if (action?.kind === "user_ask_confirmation") return "your confirmation";
  const call = run.pendingAgentCall;
  if (call) {
    const who = run.execution.agentExecutor === "mcp_client" ? "the IDE's agent" : "the service's model";
    return `agent "${call.agentId}" (${call.phase}), executed by ${who}`;
  }
  return undefined;
}

/** The command that moves this Run on, or shows why it stopped. */
export function nextStep(
  run: RunView,
  context: RunContext,
  stream: Stream = Deno.stdout,
): string | undefined {
  switch (run.status) {
    case "waiting":
      return run.pendingAction
        ? hint("answer with", `weft attach ${run.runId}`, stream)
        : hint("follow with", `weft attach ${run.runId}`, stream);
    case "running":
      return hint("follow with", `weft attach ${run.runId}`, stream);
    case "completed":
      return hint("see what it committed", `weft artifacts --flow ${run.flowName}`, stream);
    case "failed":
      return hint("see what happened", `weft run ${run.runId}`, stream);
    case "cancelled":
      return context.startableHere
        ? hint("start again with", `weft flow ${run.flowName} --intent …`, stream)
        : hint("start again", `from your IDE's agent (\`weft flows\` says why not from here)`, stream);
  }
}

/** A Run as a short block: identity and status, then its fields, then the next step. */
export function describeRun(
  run: RunView,
  context: RunContext = NO_CONTEXT,
  stream: Stream = Deno.stdout,
  now = new Date(),
): string {
  const fields: [string, string][] = [
    ["intent", truncate(run.intent, 100)],
    ["at", `${run.cursor.stageName} / ${run.cursor.stepName}`],
    ["version", run.version ?? "none yet (stored by an older weft)"],
    ["source", `${run.execution.source} (agent steps run by ${run.execution.agentExecutor})`],
    ["created", `${relativeTime(run.createdAt, now)} · updated ${relativeTime(run.updatedAt, now)}`],
  ];
  const waits = waitingFor(run);
  if (waits) fields.push(["waits for", waits]);
  if (run.lastError) fields.push(["error", `${run.lastError.code}: ${run.lastError.message}`]);
  const width = Math.max(...fields.map(([label]) => label.length));
  const lines = [
    `${paint("bold", run.runId, stream)}  ${run.flowName}  ${
      paint(statusTone(run.status), run.status, stream)
    }`,
    ...fields.map(([label, value]) => `  ${paint("dim", label.padEnd(width), stream)}  ${value}`),
  ];
  const next = nextStep(run, context, stream);
  if (next) lines.push(next);
  return lines.join("\n");
}
