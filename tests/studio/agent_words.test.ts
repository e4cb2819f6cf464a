/** Studio's timeline in words, on its own: who claimed an agent call depends on who does the Run's agent work. */

import assert from "node:assert/strict";
import { describeEvent } from "../../src/studio/page/timeline.ts";
import type { RunEvent } from "../../src/studio/page/types.ts";

const CLAIMED: RunEvent = { seq: 3, at: "", type: "agent_call_claimed", stageName: "s", stepName: "draft" };

Deno.test("studio timeline: a claim by the service's model says the model is working on it", () => {
  assert.equal(
    describeEvent(CLAIMED, { flowName: "intent", execution: { source: "cli", agentExecutor: "service" } }),
    "Agent call claimed: the service's model is working on it",
  );
});

Deno.test("studio timeline: a claim of a Run the IDE drives names the IDE's agent", () => {
  assert.equal(
    describeEvent(CLAIMED, {
      flowName: "intent",
      execution: { source: "agent_ide", agentExecutor: "mcp_client" },
    }),
    "Agent call claimed by the IDE's agent",
  );
});
