/**
 * The six agent-task tools of the external endpoints (SPEC §3 "Agent tasks"): the IDE's agent claims a
 * Run's pending agent call, works through the task's declared tools and assets, and completes or fails it.
 * Their descriptions teach the protocol, because they are all an agent reads before calling.
 *
 * @module
 */

import { z } from "zod";
import { defineTool } from "../tool.ts";
import { RunViewSchema } from "../../engine/views.ts";
import { Identity } from "./identity.ts";

/** Longest `fail_agent_call` message, in characters. */
export const MAX_FAIL_MESSAGE_CHARS = 4096;

const TaskRef = {
  runId: Identity.describe("the Run's runId"),
  callId: Identity.describe("the Run's current pendingAgentCall.id"),
};

const OwnerRef = {
  ...TaskRef,
  ownerToken: Identity.describe("the ownerToken claim_agent_call returned; keep it private"),
};

const JsonSchema = z.record(z.string(), z.unknown());

const Task = z.object({
  runId: z.string(),
  callId: z.string(),
  agentId: z.string(),
  cursor: z.object({ stageName: z.string(), stepName: z.string() }),
  instructions: z.string(),
  skills: z.array(z.object({
    name: z.string(),
    description: z.string(),
    content: z.string(),
    assets: z.array(z.object({ id: z.string(), name: z.string() })),
  })),
  tools: z.array(z.object({
    id: z.string(),
    kind: z.string(),
    description: z.string(),
    inputSchema: JsonSchema,
    outputSchema: JsonSchema,
  })),
  outputSchema: JsonSchema,
});

const Continued = z.object({ run: RunViewSchema });

const PROTOCOL = "Agent-task protocol: get_agent_call (optional) → claim_agent_call → call_agent_tool / " +
  "read_agent_asset → complete_agent_call (or fail_agent_call).";

/** Shows a pending agent call: its task, phase and receipt summaries. */
export const getAgentCallTool = defineTool({
  name: "get_agent_call",
  title: "Show agent call",
  description: `${PROTOCOL} Shows the task of a Run's pending agent call (callId = the Run's ` +
    "pendingAgentCall.id): instructions, Skills, declared tools and the output schema, whether it is " +
    "available or claimed, and the receipts of tool calls made so far. Read-only; it never shows the owner " +
    "token, so claim_agent_call is still needed to work on the task.",
  input: z.strictObject(TaskRef),
  output: z.object({
    agentCall: z.object({
      runId: z.string(),
      callId: z.string(),
      agentId: z.string(),
      phase: z.enum(["available", "claimed"]),
      task: Task,
      receipts: z.array(z.object({
        toolCallId: z.string(),
        toolId: z.string(),
        status: z.enum(["running", "succeeded", "failed"]),
      })),
    }),
  }),
  effects: { readOnly: true, destructive: false, idempotent: true },
  run(input, { service }) {
    return { agentCall: service.claims.describe(input) };
  },
});

/** Claims a pending agent call, or resumes the claim of the same claimant. */
export const claimAgentCallTool = defineTool({
  name: "claim_agent_call",
  title: "Claim agent call",
  description: `${PROTOCOL} Takes ownership of a Run's pending agent call (callId = pendingAgentCall.id) ` +
    "and returns its task plus an ownerToken. Generate one stable, unique claimId and keep it: calling " +
    "again with the same claimId (after a disconnect, from any session) resumes the claim and returns the " +
    "same ownerToken; any other claimId gets CONFLICT. Keep the ownerToken private: never show it to the " +
    "user, write it into files or pass it to other tools than these six. Claims live in the service's " +
    "memory: a restart interrupts the Run.",
  input: z.strictObject({
    ...TaskRef,
    claimId: Identity.describe("your stable, unique claimant id; reuse it to resume"),
  }),
  output: z.object({ task: Task, ownerToken: z.string() }),
  effects: { readOnly: false, destructive: false, idempotent: true },
  run(input, { service }) {
    return service.claims.claim(input);
  },
});

/** Runs one of the task's declared tools. */
export const callAgentToolTool = defineTool({
  name: "call_agent_tool",
  title: "Call agent task tool",
  description: `${PROTOCOL} Runs one tool the claimed task declares (toolId from task.tools) with input ` +
    "matching its inputSchema, and returns its output. Tools run one at a time per task: wait for each " +
    "result before the next call (a concurrent call gets BUSY). Use a fresh toolCallId for every new call; " +
    "when a result is lost or BUSY, retry with the same toolCallId and the same input, which returns the " +
    "retained receipt without running the tool again (changed input under a used toolCallId: CONFLICT). " +
    "A task holds at most 256 receipts; then complete or fail it.",
  input: z.strictObject({
    ...OwnerRef,
    toolCallId: Identity.describe("your id for this call; reuse it only to retry the same call"),
    toolId: Identity.describe("a tool id from task.tools"),
    input: z.record(z.string(), z.unknown()).default({}).describe("the tool input, per its inputSchema"),
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
  description: `${PROTOCOL} Reads one asset of the claimed task's Skills by its declared id (from ` +
    "task.skills[].assets; never a file path). At most 1 MiB; encoding is utf8 for text, else base64.",
  input: z.strictObject({
    ...OwnerRef,
    assetId: Identity.describe("an asset id from task.skills[].assets"),
  }),
  output: z.object({
    assetId: z.string(),
    name: z.string(),
    encoding: z.enum(["utf8", "base64"]),
    content: z.string(),
  }),
  effects: { readOnly: true, destructive: false, idempotent: true },
  run({ assetId, ...ref }, { service }) {
    return service.claims.readAsset(ref, assetId);
  },
});

/** Completes the claimed call with the agent's result and returns the continued Run. */
export const completeAgentCallTool = defineTool({
  name: "complete_agent_call",
  title: "Complete agent call",
  description: `${PROTOCOL} Finishes the claimed task: result is the raw JSON value (not prose, not a ` +
    "Markdown block) matching task.outputSchema, including its outcome. Wait until your tool calls have " +
    "returned (BUSY otherwise). A result outside the schema gets AGENT_OUTPUT_INVALID with every violation, " +
    "and the call stays claimed so you can send a corrected one. On success the workflow continues and " +
    "the returned Run shows what comes next: a new pendingAgentCall to claim, a pendingAction for the " +
    "person, or the end. Follow that Run; never call flow to continue. An identical retry returns the same " +
    "Run until the next agent call is claimed.",
  input: z.strictObject({
    ...OwnerRef,
    result: z.unknown().describe("the final JSON value matching task.outputSchema"),
  }),
  output: Continued,
  effects: { readOnly: false, destructive: false, idempotent: true },
  run({ result, ...ref }, { service }) {
    return { run: service.claims.complete(ref, result) };
  },
});

/** Gives up on the claimed call, which fails its Run. */
export const failAgentCallTool = defineTool({
  name: "fail_agent_call",
  title: "Fail agent call",
  description: `${PROTOCOL} Gives up on the claimed task when it cannot be done: the Run ends as failed ` +
    "(AGENT_CALL_FAILED) with your message, and what earlier steps committed stays. Say briefly why; do " +
    "not include secrets. Prefer complete_agent_call whenever the output schema lets you report the problem.",
  input: z.strictObject({
    ...OwnerRef,
    message: z.string().max(MAX_FAIL_MESSAGE_CHARS)
      .refine((value) => value.trim().length > 0, "must not be blank")
      .describe("why the task cannot be done"),
  }),
  output: Continued,
  effects: { readOnly: false, destructive: true, idempotent: true },
  run({ message, ...ref }, { service }) {
    return { run: service.claims.fail(ref, message) };
  },
});
