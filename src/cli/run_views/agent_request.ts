/**
 * The terminal's hint of what to tell the IDE's agent when a Run started here waits for it
 * (`src/client/agent_request.ts` holds the sentence, which Studio says too).
 *
 * @module
 */

import { agentRequest } from "../../client/agent_request.ts";
import type { RunView } from "../../client/views.ts";
import { hint, type Stream } from "../terminal/format.ts";

export { waitsForIdeAgent } from "../../client/agent_request.ts";

/** The hint line that says what to tell the IDE's agent, and where its MCP entry comes from. */
export function agentHint(run: RunView, stream: Stream = Deno.stdout): string {
  return hint(
    "tell your IDE's agent",
    agentRequest(run),
    stream,
    "(no model of weft's is configured; the IDE's entry: `weft config claude`, or codex, cursor, vscode)",
  );
}
