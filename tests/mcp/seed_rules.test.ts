/**
 * The checklist of the MCP reference's rules: each stays reachable by an agent that reads only what weft
 * serves: the server instructions (in every session's context), a tool's description (in the tool list),
 * or the agent-protocol resource the instructions point to. A rule moved or cut fails here by name.
 */
import assert from "node:assert/strict";
import { endpointAt } from "../../src/mcp/endpoints.ts";
import { instructionsFor } from "../../src/mcp/instructions.ts";
import { listingFor } from "../../src/mcp/listing.ts";
import { toolsFor } from "../../src/mcp/tools/mod.ts";
import { PROTOCOL_DOC_URI, readProtocolDoc } from "../../src/mcp/protocol_doc.ts";

/** Where a rule is said: the instructions, the resource, or a tool by name. */
type Place = "instructions" | "resource" | string;

/** Each rule of the reference, and where weft says it (every place listed must say it). */
const RULES: { rule: string; said: [Place, RegExp][] }[] = [
  {
    rule: "a session is bound to its endpoint; internal endpoints never fall back to external ones",
    said: [["resource", /A session belongs to the endpoint it was opened on/], [
      "resource",
      /never fall back/,
    ]],
  },
  {
    rule: "bearer credentials and owner tokens are kept secret",
    said: [["instructions", /Keep tokens secret/], ["claim_agent_call", /Keep the ownerToken private/]],
  },
  {
    rule: "a list of Artifacts holds metadata, a detail the data; a missing Record or Artifact is null",
    said: [["list_artifacts", /without their data/], ["get_artifact", /null/], ["get_record", /null/]],
  },
  {
    rule: "business errors are isError results with a classified error payload",
    said: [["instructions", /isError results with \{ error: \{ code, message, retryable \} \}/]],
  },
  {
    rule: "clients handle structured content, JSON text content and native interaction responses",
    said: [["resource", /carries `structuredContent` and the same JSON as text/], [
      "interact",
      /as a form/,
    ]],
  },
  {
    rule: "a task reference is { runId, callId }; an ownership reference adds ownerToken",
    said: [[
      "resource",
      /A task reference is `\{ runId, callId \}`.*an owner reference adds the `ownerToken`/,
    ]],
  },
  {
    rule: "callId is the current pendingAgentCall.id; a stable, unique claimId",
    said: [["instructions", /callId = its id and a stable, unique claimId/], [
      "claim_agent_call",
      /callId = pendingAgentCall\.id/,
    ]],
  },
  {
    rule: "other claimants get a conflict; the same identity resumes an active claim",
    said: [[
      "claim_agent_call",
      /the same claimId resumes the claim after a disconnect, any other gets CONFLICT/,
    ]],
  },
  {
    rule: "the task holds instructions, Skills, declared tools and the final output schema",
    said: [["resource", /instructions, skills: .*tools: .*outputSchema \}/]],
  },
  {
    rule: "tools run serially",
    said: [["instructions", /one at a time/], ["call_agent_tool", /One call at a time/]],
  },
  {
    rule: "the same toolCallId and input return the retained receipt; changed input is a conflict",
    said: [["call_agent_tool", /same toolCallId with the same input to retry/], [
      "resource",
      /different input under that id is `CONFLICT`/,
    ]],
  },
  { rule: "a task retains at most 256 receipts", said: [["resource", /at most 256 receipts/]] },
  {
    rule: "in-flight tools finish before the task is completed",
    said: [["instructions", /When your tool calls have returned, complete_agent_call/], [
      "resource",
      /Refused with `BUSY` while a tool is in flight/,
    ]],
  },
  {
    rule: "assets: declared ids only, never paths, at most 1 MiB per read",
    said: [["read_agent_asset", /declared id.*never a path.*at most 1 MiB/s]],
  },
  {
    rule: "submit the raw final JSON per the task's output schema",
    said: [["complete_agent_call", /raw JSON value matching task\.outputSchema/], [
      "instructions",
      /raw JSON matching task\.outputSchema/,
    ]],
  },
  {
    rule: "follow the returned Run; never call flow to advance to the next task",
    said: [["complete_agent_call", /follow the returned Run; never call flow to advance/], [
      "instructions",
      /nor to advance a Run/,
    ]],
  },
  {
    rule: "a question answer is the complete array, real question ids, skips only where allowed",
    said: [["answer_ask", /the complete array/], [
      "resource",
      /with the real question ids, skipping only where `isSkippable`/,
    ]],
  },
  {
    rule: "a confirmation answer is { isConfirmed, feedback }",
    said: [["answer_ask", /"isConfirmed", "feedback"/], ["resource", /"isConfirmed": false, "feedback"/]],
  },
  {
    rule:
      "interact tries native interaction; else show the action and submit the exact answer with answer_ask",
    said: [[
      "interact",
      /unavailable: show them action\.request yourself and send their exact answer with answer_ask/,
    ]],
  },
  {
    rule: "cancelling the client form keeps the wait and does not cancel the Run",
    said: [["instructions", /Closing the form keeps the Run waiting/], [
      "interact",
      /dismissed: it keeps waiting/,
    ]],
  },
  {
    rule: "agent execution cannot authorize a human confirmation",
    said: [["instructions", /Never answer, skip or confirm for them/], [
      "answer_ask",
      /Never answer or confirm for the person/,
    ]],
  },
  {
    rule: "creating a Run is not idempotent: query first, do not replay flow",
    said: [["flow", /Not idempotent/], ["instructions", /not idempotent: when a result is uncertain, look/]],
  },
  {
    rule: "claims and tool operations retry through explicit identities for the process's lifetime",
    said: [[
      "resource",
      /retried for the lifetime of the service process, through their explicit identities/,
    ]],
  },
  {
    rule: "completion retries are bounded by the current call's retained result, not durable",
    said: [["resource", /bounded by the retained result of the current call/]],
  },
  {
    rule: "cancellation invalidates ownership and rejects late results",
    said: [["instructions", /Cancellation ends your ownership/], [
      "resource",
      /`cancel_run` invalidates ownership/,
    ]],
  },
  {
    rule: "a restart does not restore active tasks; interrupted tasks become RUN_INTERRUPTED",
    said: [["instructions", /a restart interrupts active tasks \(RUN_INTERRUPTED\)/]],
  },
  {
    rule: "no lease preemption, no automatic model fallback, no wake-up triggered by a connection",
    said: [["resource", /no lease preemption, no automatic model fallback, and no wake-up of a client/]],
  },
];

Deno.test("every rule of the MCP reference is said where an agent reads it", () => {
  const endpoint = endpointAt("/mcp")!;
  const texts = new Map<Place, string>([
    ["instructions", instructionsFor(endpoint)],
    ["resource", readProtocolDoc(PROTOCOL_DOC_URI).contents[0].text],
    ...listingFor(endpoint, toolsFor(endpoint)).map((tool) => [tool.name, tool.description ?? ""] as const),
  ].map(([place, text]) => [place, text.replace(/\s+/g, " ")])); // line breaks of the Markdown do not matter
  const missing = RULES.flatMap(({ rule, said }) => {
    assert.ok(said.length > 0, `"${rule}" is said somewhere`);
    return said.filter(([place, pattern]) => !pattern.test(texts.get(place) ?? ""))
      .map(([place, pattern]) => `"${rule}": ${place} does not match ${pattern}`);
  });
  assert.deepEqual(missing, []);
});
