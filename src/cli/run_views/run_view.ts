/**
 * A Run as people read it in the terminal, the next step it asks of them, and the exit code it stands for.
 *
 * @module
 */

import type { RunView } from "../../client/views.ts";
import { RESUMABLE_FAILURES } from "../../errors.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { hint, paint, relativeTime, statusTone, type Stream, truncate } from "../terminal/format.ts";
import { agentHint, waitsForIdeAgent } from "./agent_request.ts";
import { NO_CONTEXT, type RunContext } from "./run_context.ts";
import { argvText } from "../../lib/argv_text.ts";

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
  const command = run.pendingCommand;
  if (command) {
    const shown = typeof command.run === "string"
      ? `the project command "${command.run}"`
      : argvText(command.run);
    if (command.phase === "untrusted") return `your trust of its command ${shown}`;
    return command.phase === "running" ? `its command ${shown} (running)` : `a free slot to run ${shown}`;
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
      if (run.pendingCommand?.phase === "untrusted") {
        return hint(
          "review and trust its command with",
          "weft trust",
          stream,
          `then \`weft retry ${run.runId}\``,
        );
      }
      if (run.pendingAction) return hint("answer with", `weft attach ${run.runId}`, stream);
      return [
        ...(waitsForIdeAgent(run) ? [agentHint(run, stream)] : []),
        hint("follow with", `weft attach ${run.runId}`, stream),
      ].join("\n");
    case "running":
      return hint("follow with", `weft attach ${run.runId}`, stream);
    case "completed":
      if (run.next) {
        return hint(run.next.say, `weft flow ${run.next.flowName} --intent ${run.next.intent}`, stream);
      }
      // A Run that works through a list (deliver) commits nothing of its own: its result is its tasks.
      return run.list
        ? hint("see its tasks with", `weft tasks ${run.runId}`, stream)
        : hint("see what it committed", `weft artifacts --flow ${run.flowName}`, stream);
    case "failed":
      return afterFailure(run, stream);
    case "cancelled":
      return context.startableHere
        ? hint("start again with", `weft flow ${run.flowName} --intent …`, stream)
        : hint("start again", `from your IDE's agent (\`weft flows\` says why not from here)`, stream);
  }
}

/**
 * What to do about a failed Run, by its failure: resume one whose agent call stopped, check the model of one
 * the model server refused, look into the logs of a failed tool, else start again (the Run itself, with its
 * error, is already on screen).
 */
function afterFailure(run: RunView, stream: Stream): string {
  const code = run.lastError?.code;
  if (RESUMABLE_FAILURES.some((resumable) => resumable === code)) {
    return hint("resume it with", `weft retry ${run.runId}`, stream);
  }
  if (code === "MODEL_REQUEST_FAILED" || code === "CONFIGURATION_REQUIRED") {
    return hint("check the model's configuration with", "weft doctor", stream);
  }
  if (code === "TOOL_FAILED") return hint("see what the service saw", `weft logs ${run.runId}`, stream);
  return hint("start again with", `weft flow ${run.flowName} --intent …`, stream);
}

/** A Run as a short block: identity and status, then its fields, then the next step. */
export function describeRun(
  run: RunView,
  context: RunContext = NO_CONTEXT,
  stream: Stream = Deno.stdout,
  now = new Date(),
): string {
  const fields: [string, string][] = [
    ...(run.title ? [["title", truncate(run.title, 100)] as [string, string]] : []),
    ["intent", truncate(run.intent, 100)],
    ["at", `${run.cursor.stageName} / ${run.cursor.stepName}`],
    ["version", run.version ?? "none yet (stored by an older weft)"],
    ["source", `${run.execution.source} (agent steps run by ${run.execution.agentExecutor})`],
    ["created", `${relativeTime(run.createdAt, now)} · updated ${relativeTime(run.updatedAt, now)}`],
  ];
  if (run.revisionOf) {
    const { artifactId, fromRevision, path } = run.revisionOf;
    fields.splice(1, 0, ["revises", `${artifactId} (revision ${fromRevision}) from the edited ${path}`]);
  }
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
