/**
 * What a person tells the IDE's agent when a Run they started at the terminal waits for it: without a model
 * of weft's own, the agent steps of such a Run go to the IDE's agent, which learns of the Run only from the
 * person (a sentence to paste into the IDE's chat) and then finds its work through weft's tools.
 *
 * @module
 */

import type { RunView } from "../../client/views.ts";
import { hint, type Stream } from "../terminal/format.ts";

/** Whether `run` waits for an agent call nobody took yet that the IDE's agent is to work for a person here. */
export function waitsForIdeAgent(run: RunView): boolean {
  return run.status === "waiting" && run.pendingAgentCall?.phase === "available" &&
    run.execution.agentExecutor === "mcp_client" && run.execution.source !== "agent_ide";
}

/** The sentence the person pastes into the IDE's chat: enough for an agent holding weft's tools. */
export function agentRequest(run: RunView): string {
  return `Work on weft Run ${run.runId} with weft's MCP tools: claim its agent call, do what it asks, and ` +
    "follow the Run until it waits for me.";
}

/** The hint line that says what to tell the IDE's agent, and where its MCP entry comes from. */
export function agentHint(run: RunView, stream: Stream = Deno.stdout): string {
  return hint(
    "tell your IDE's agent",
    agentRequest(run),
    stream,
    "(no model of weft's is configured; the IDE's entry: `weft config claude`, or codex, cursor, vscode)",
  );
}
