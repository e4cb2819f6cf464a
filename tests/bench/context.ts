/**
 * What weft costs an agent's context: per endpoint, `tools/list` plus instructions against the endpoint's
 * budget (with each tool's bytes), and the results agents fetch most, `get_run` without timeline and the
 * claim's task, on an `intent` Run.
 *
 * @module
 */

import type { RunView } from "../../src/engine/views.ts";
import type { Client } from "../support/sdk_test_client.ts";
import { ENDPOINTS } from "../../src/mcp/endpoints.ts";
import { bytes, contextCost } from "../support/context_cost.ts";
import { call, connect } from "./clients.ts";
import { log, reason, sizeRow } from "./report.ts";
import { closeClient } from "./resources.ts";
import type { Started } from "./servers.ts";

/** One row per endpoint: its bytes against its budget. */
export function benchContext(): void {
  log("context: tools/list plus instructions per endpoint");
  for (const endpoint of ENDPOINTS) {
    const cost = contextCost(endpoint);
    sizeRow(
      `context${endpoint.path}`,
      `tools/list + instructions, ${endpoint.path}`,
      cost.total,
      cost.budget,
      {
        toolsList: cost.toolsList,
        instructions: cost.instructions,
        tools: cost.tools,
      },
    );
  }
}

/**
 * The typical result sizes of an `intent` Run's first agent call on `/mcp`: `get_run` without timeline and
 * `claim_agent_call`, as the JSON of their structured content (the wire carries it twice: as
 * `structuredContent` and as text).
 */
export async function benchResultSizes(weftServer: Started): Promise<void> {
  log("result sizes: get_run and claim_agent_call on an intent Run");
  let ide: Client | undefined;
  try {
    ide = await connect(weftServer, "/mcp");
    const intent = "Add a CSV export to the weekly report page";
    const { run } = await call<{ run: RunView }>(ide, "flow", { flowName: "intent", intent });
    sizeRow(
      "getRunBytes",
      "get_run result (no timeline), intent Run",
      bytes(await call(ide, "get_run", { runId: run.runId })),
      null,
    );
    const ref = { runId: run.runId, callId: run.pendingAgentCall!.id, claimId: "bench-sizes" };
    const claimed = await call<{ task: Record<string, unknown> }>(ide, "claim_agent_call", ref);
    const parts = Object.fromEntries(Object.entries(claimed.task).map(([key, value]) => [key, bytes(value)]));
    sizeRow("claimBytes", "claim_agent_call result (task + token), intent Run", bytes(claimed), null, parts);
    await call(ide, "cancel_run", { runId: run.runId });
  } catch (error) {
    log(`  result sizes: n/a (${reason(error)})`);
  } finally {
    if (ide) await closeClient(ide);
  }
}
