/**
 * Who does a Run's agent work, in words: the service's own model or the IDE's agent, as the Run's
 * `agentExecutor` says. Pure, so it is tested on its own.
 *
 * @module
 */

/** "the service's model" or "the IDE's agent". */
export function agentName(agentExecutor: string): string {
  return agentExecutor === "service" ? "the service's model" : "the IDE's agent";
}

/** The timeline's words for an agent call that was claimed. */
export function claimedText(agentExecutor: string): string {
  return agentExecutor === "service"
    ? "Agent call claimed: the service's model is working on it"
    : "Agent call claimed by the IDE's agent";
}
