/**
 * The six agent-task tools of the external endpoints (src/mcp/agent_protocol.md): the IDE's agent claims a
 * Run's pending agent call, works through the task's declared tools and assets, and completes or fails it.
 * Each description says what the tool does and the one rule that matters at that call; the whole protocol is
 * said once, in the server instructions and the agent-protocol resource.
 *
 * @module
 */

import { z } from "../../lib/zod.ts";
import { AgentCallViewSchema } from "../../agent_calls/claim_table.ts";
import { defineTool } from "../tool.ts";
import { AgentAssetViewSchema, AgentTaskDefinitionSchema, RunViewSchema } from "../../engine/views.ts";
import { IdSchema } from "./shared_inputs.ts";

/** Longest `fail_agent_call` message, in characters. */
export const MAX_FAIL_MESSAGE_CHARS = 4096;

const TaskRef = { runId: IdSchema, callId: IdSchema };

const OwnerRef = { ...TaskRef, ownerToken: IdSchema };

const Continued = z.object({ run: RunViewSchema });

/** Shows a pending agent call: its task, phase and receipt summaries. */
export const getAgentCallTool = defineTool({
  name: "get_agent_call",
  title: "Show agent call",
  description: "Show a Run's pending agent call (callId = pendingAgentCall.id): its task, " +
    "phase and receipts, never the owner token.",
  input: z.strictObject(TaskRef),
  output: z.object({ agentCall: AgentCallViewSchema }),
  effects: { readOnly: true, destructive: false, idempotent: true },
  async run(input, { service }) {
    return { agentCall: await service.claims.describe(input) };
  },
});

/** Claims a pending agent call, or resumes the claim of the same claimant. */
export const claimAgentCallTool = defineTool({
  name: "claim_agent_call",
  title: "Claim agent call",
  description: "Claim a Run's pending agent call (callId = pendingAgentCall.id): returns " +
    "the task and an ownerToken. Use one stable, unique claimId: the same claimId resumes the claim after " +
    "a disconnect, any other gets CONFLICT. Keep the ownerToken private.",
  input: z.strictObject({
    ...TaskRef,
    claimId: IdSchema,
  }),
  output: z.object({ task: AgentTaskDefinitionSchema, ownerToken: z.string() }),
  effects: { readOnly: false, destructive: false, idempotent: true },
  run(input, { service }) {
    return service.claims.claim(input);
  },
});

/** Runs one of the task's declared tools. */
export const callAgentToolTool = defineTool({
  name: "call_agent_tool",
  title: "Call agent task tool",
  description: "Run one tool of the claimed task (toolId from task.tools, input per " +
    "its inputSchema). One call at a time; a fresh toolCallId per call, and the same toolCallId with the " +
    "same input to retry (returns the kept receipt).",
  input: z.strictObject({
    ...OwnerRef,
    toolCallId: IdSchema,
    toolId: IdSchema,
    input: z.record(z.string(), z.unknown()).default({}),
  }),
  output: z.object({ output: z.unknown() }),
  effects: { readOnly: false, destructive: false, idempotent: true },
  async run({ toolCallId, toolId, input, ...ref }, { service }) {
    return { output: await service.claims.callTool(ref, { toolCallId, toolId, input }) };
  },
});

/** Reads one declared Skill asset. */
export const readAgentAssetTool = defineTool({
  name: "read_agent_asset",
  title: "Read agent task asset",
  description: "Read a Skill asset of the claimed task by its declared id " +
    "(task.skills[].assets; never a path): at most 1 MiB, utf8 or base64.",
  input: z.strictObject({
    ...OwnerRef,
    assetId: IdSchema,
  }),
  output: AgentAssetViewSchema,
  effects: { readOnly: true, destructive: false, idempotent: true },
  run({ assetId, ...ref }, { service }) {
    return service.claims.readAsset(ref, assetId);
  },
});

/** Completes the claimed call with the agent's result and returns the continued Run. */
export const completeAgentCallTool = defineTool({
  name: "complete_agent_call",
  title: "Complete agent call",
  description: "Finish the claimed task with result = the raw JSON value matching " +
    "task.outputSchema (AGENT_OUTPUT_INVALID lists each violation; fix and resend). Then follow the returned " +
    "Run; never call flow to advance.",
  input: z.strictObject({
    ...OwnerRef,
    result: z.unknown(),
  }),
  output: Continued,
  effects: { readOnly: false, destructive: false, idempotent: true },
  async run({ result, ...ref }, { service }) {
    return { run: await service.claims.complete(ref, result) };
  },
});

/** Gives up on the claimed call, which fails its Run. */
export const failAgentCallTool = defineTool({
  name: "fail_agent_call",
  title: "Fail agent call",
  description: "Give up on the claimed task: the Run ends failed with your message; " +
    "committed work stays.",
  input: z.strictObject({
    ...OwnerRef,
    message: z.string().max(MAX_FAIL_MESSAGE_CHARS)
      .refine((value) => value.trim().length > 0, "must not be blank"),
  }),
  output: Continued,
  effects: { readOnly: false, destructive: true, idempotent: true },
  async run({ message, ...ref }, { service }) {
    return { run: await service.claims.fail(ref, message) };
  },
});
