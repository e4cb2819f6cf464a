/**
 * What the service's model is doing, as a followed Run's timeline tells it: the step it works on, each
 * model turn with its tokens and time, and each tool call as it happens.
 *
 * @module
 */

import type { WeftClient } from "../../client/connect.ts";
import type { RunEventView, RunView } from "../../engine/views.ts";
import { paint, type Stream } from "../format.ts";

/** Prints the model's timeline entries a followed Run gained since the last look. */
export class ModelProgress {
  #seen = 0;

  constructor(readonly stream: Stream) {}

  /** Looks at the timeline of a Run whose agent steps the service's model runs; prints what is new. */
  async update(client: WeftClient, run: RunView, say: (line: string) => void): Promise<void> {
    if (run.execution.agentExecutor !== "service") return;
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
      case "agent_call_completed":
        return paint("green", `  ✓ ${step}: ${event.outcome}`, this.stream);
      case "agent_call_failed":
        return paint("red", `  ✗ ${step}: ${event.code ?? "failed"}`, this.stream);
      default:
        return undefined;
    }
  }
}
