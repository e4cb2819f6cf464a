/** Studio's words for who works on a Run's agent calls, on their own: the service's model or the IDE's agent. */

import assert from "node:assert/strict";
import { agentName, claimedText } from "../../src/studio/page/agent_words.ts";

Deno.test("studio timeline: a claim by the service's model says the model is working on it", () => {
  assert.equal(claimedText("service"), "Agent call claimed: the service's model is working on it");
  assert.equal(agentName("service"), "the service's model");
});

Deno.test("studio timeline: a claim of a Run the IDE drives names the IDE's agent", () => {
  assert.equal(claimedText("mcp_client"), "Agent call claimed by the IDE's agent");
  assert.equal(agentName("mcp_client"), "the IDE's agent");
});
