/**
 * Helpers of the store's tests.
 *
 * @module
 */

import type { RunState } from "../../src/engine/run_state.ts";

/** A Run as the store saves it, waiting at its first step; `fields` replace any of its own. */
export function storedRun(runId: string, fields: Partial<RunState> = {}): RunState {
  const at = new Date().toISOString();
  return {
    runId,
    flowName: "f",
    version: "v1",
    intent: "i",
    status: "waiting",
    source: "cli",
    agentExecutor: "mcp_client",
    stageName: "s",
    stepName: "t",
    state: {},
    stageAnswers: [],
    visits: {},
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}
