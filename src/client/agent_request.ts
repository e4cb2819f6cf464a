/**
 * What a person tells the IDE's agent about a Run they started in the terminal or Studio while no model of
 * weft's is configured: its agent steps go to the IDE's agent, which learns of the Run only from the person (a
 * sentence to paste into the IDE's chat) and then finds its work through weft's tools. The terminal and
 * Studio say the same sentence.
 *
 * @module
 */

/** The parts of a Run the sentence depends on. */
export interface AgentRequestRun {
  runId: string;
  status: string;
  execution: { source: string; agentExecutor: string };
  pendingAgentCall?: { phase: string };
}

/** Whether `run` waits for an agent call nobody took yet that the IDE's agent is to work for a person. */
export function waitsForIdeAgent(run: AgentRequestRun): boolean {
  return run.status === "waiting" && run.pendingAgentCall?.phase === "available" &&
    run.execution.agentExecutor === "mcp_client" && run.execution.source !== "agent_ide";
}

/** The sentence the person pastes into the IDE's chat: enough for an agent holding weft's tools. */
export function agentRequest(run: AgentRequestRun): string {
  return `Work on weft Run ${run.runId} with weft's MCP tools: claim its agent call, do what it asks, and ` +
    "follow the Run until it waits for me.";
}
