/**
 * What the service is doing on a followed Run, as its timeline tells it: the step its model works on, each
 * model turn with its tokens and time, each tool call as it happens, and each command step's start and end
 * with the last lines of its output.
 *
 * @module
 */

import type { WeftClient } from "../../client/weft_client.ts";
import type { RunEventView, RunView, StreamTail } from "../../client/views.ts";
import { paint, type Stream } from "../terminal/format.ts";
import type { CommandTail } from "./command_tail.ts";
import { argvText } from "../../lib/argv_text.ts";
import { visibleText } from "../../lib/visible_text.ts";

/** Prints the model's timeline entries a followed Run gained since the last look. */
export class ModelProgress {
  #seen = 0;
  #model = false;

  /** `live`: what this terminal printed of running commands' output, so their end shows only the rest. */
  constructor(readonly stream: Stream, readonly live?: CommandTail) {}

  /** Looks at the timeline of a Run the service works on (its model, its commands); prints what is new. */
  async update(client: WeftClient, run: RunView, say: (line: string) => void): Promise<void> {
    // Commands run in the service whoever executes the agent steps; model lines only for the service's.
    this.#model = run.execution.agentExecutor === "service";
    const { timeline } = await client.call<{ timeline: RunEventView[] }>("get_run", {
      runId: run.runId,
      timeline: true,
    });
    for (const event of timeline) {
      if (event.seq <= this.#seen) continue;
      this.#seen = event.seq;
      const line = this.#describe(event);
      if (line) say(line);
    }
  }

  #describe(event: RunEventView): string | undefined {
    const step = `${event.stageName}/${event.stepName}`;
    if (event.type.startsWith("command_")) return describeCommandEvent(event, step, this.stream, this.live);
    if (!this.#model) return undefined;
    switch (event.type) {
      case "agent_call_started":
        return paint("cyan", `▸ ${step}: the service's model works on it (${event.agentId})`, this.stream);
      case "model_turn": {
        const tokens = `${event.inputTokens ?? "?"} in / ${event.outputTokens ?? "?"} out tokens`;
        const calls = (event.toolCalls as string[]).join(", ") || "no tool call";
        return paint(
          "dim",
          `  turn ${event.turn} · ${event.model} · ${tokens} · ${event.ms} ms → ${calls}`,
          this.stream,
        );
      }
      case "model_tool_call":
        return `    ↳ ${event.toolId}${
          event.outcome === "ok" ? "" : paint("yellow", ` ${event.outcome}`, this.stream)
        }`;
      case "project_file_written":
        return `      ${event.status === "created" ? "created" : "changed"} ${event.path}`;
      case "agent_call_completed":
        return paint("green", `  ✓ ${step}: ${event.outcome}`, this.stream);
      case "agent_call_failed":
        return paint("red", `  ✗ ${step}: ${event.code ?? "failed"}`, this.stream);
      default:
        return undefined;
    }
  }
}

/**
 * A command step's timeline entry as a terminal line; its end shows the last lines of the output, or, when
 * `live` printed it as it arrived, the lines it has not printed yet.
 */
export function describeCommandEvent(
  event: RunEventView,
  step: string,
  stream: Stream,
  live?: CommandTail,
): string | undefined {
  switch (event.type) {
    case "command_started":
      return paint("cyan", `▸ ${step}: running ${argvText(event.run as string[])}`, stream);
    case "command_untrusted":
      return paint("yellow", `  ! ${step}: ${event.reason}`, stream);
    case "command_ended": {
      const how = event.timedOut
        ? "timed out"
        : event.signal
        ? `ended by ${event.signal}`
        : `exit ${event.exitCode}`;
      const tone = event.outcome === "passed" ? "green" : "red";
      const mark = event.outcome === "passed" ? "✓" : "✗";
      const end = paint(tone, `  ${mark} ${step}: ${event.outcome} (${how}, ${event.durationMs} ms)`, stream);
      const tails = (["stdout", "stderr"] as const).map((name) => ({
        name,
        tail: (event[name] as StreamTail | undefined) ?? { text: "", cutBytes: 0 },
      }));
      const commandId = String(event.commandId);
      if (live?.followed(commandId)) {
        // The output went by as it arrived: what came after the last line printed, then how it ended.
        const rest = tails.flatMap(({ name, tail }) => live.rest(commandId, name, tail));
        return [...rest, end].join("\n");
      }
      const lines = [end];
      for (const { name, tail } of tails) {
        if (!tail.text) continue;
        const shown = tail.text.replace(/\n$/, "").split("\n").slice(-LAST_LINES).map(visibleText);
        const cut = tail.cutBytes ? ` (last lines; ${tail.cutBytes} bytes before them not shown)` : "";
        lines.push(paint("dim", `    ${name}${cut}:`, stream), ...shown.map((line) => `    │ ${line}`));
      }
      return lines.join("\n");
    }
    case "command_failed":
      return paint("red", `  ✗ ${step}: ${event.code}`, stream);
    default:
      return undefined;
  }
}

/** How many lines of each stream a terminal shows when a command ends. */
const LAST_LINES = 20;
