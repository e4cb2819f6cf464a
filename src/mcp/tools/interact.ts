/**
 * The `interact` tool: asks the person directly through the client's native form and submits their reply
 * exactly as `answer_ask` would, or says the form is unavailable so the client can ask them itself. On MCP
 * 2025-11-25 the form is an elicitation on the call's own stream; on 2026-07-28 it is the call's
 * `input_required` result, which the client answers by calling again with the reply and the signed state
 * (`request_state.ts`). Both show the same form and read the reply the same way.
 *
 * @module
 */

import { z } from "../../lib/zod.ts";
import { RunViewSchema } from "../../engine/views.ts";
import { invalid } from "../../errors.ts";
import { defineTool, type ToolCall } from "../tool.ts";
import { type ActionForm, actionForm } from "../elicitation/form.ts";
import { askPerson, type PersonReply } from "../elicitation/ask_person.ts";
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ElicitResult,
  inputRequired,
  inputResponse,
} from "../sdk.ts";
import type { StateVerdict } from "../elicitation/request_state.ts";
import { IdSchema } from "./shared_inputs.ts";
import { personOnly } from "../../engine/answers.ts";
import type { PendingActionView, RunView } from "../../engine/views.ts";

const PendingActionSchema = RunViewSchema.shape.pendingAction.unwrap();

/** The key of the one input request `interact` makes on 2026-07-28. */
const FORM_KEY = "answer";

/** `interact`: shows the pending action to the person as a form and answers it with their reply. */
export const interactTool = defineTool({
  name: "interact",
  title: "Ask the person",
  description:
    "Show the Run's pendingAction to the person as a form and submit their reply. answered: the Run " +
    "continues; dismissed: it keeps waiting (subscribe to its resource to wait); unavailable: show them " +
    "action.request yourself and send their exact answer with answer_ask, or, when message is present (the " +
    "action is the person's alone), pass message on to them as it is and wait.",
  input: z.strictObject({ runId: IdSchema, actionId: IdSchema }),
  output: z.object({
    interaction: z.enum(["answered", "dismissed", "unavailable"]),
    run: RunViewSchema,
    action: PendingActionSchema.optional(),
    /** When only the person may answer and no form could be shown: where and how they answer, to pass on. */
    message: z.string().optional(),
  }),
  effects: { readOnly: false, destructive: false, idempotent: false },
  async run({ runId, actionId }, call) {
    const { service, endpoint } = call;
    const { engine } = service;
    // A state sent back is checked before anything else: a form answered on another path, or made up, is not.
    const verdict = await returnedState(call);
    if (verdict?.kind === "forged") {
      throw invalid(
        "the requestState was not issued by this service as it is (altered or made up); nothing was answered. " +
          "Call interact again without it to be given the form.",
      );
    }
    if (verdict?.kind === "valid") {
      const { state } = verdict;
      if (state.runId !== runId || state.actionId !== actionId || state.path !== endpoint.path) {
        throw invalid("the requestState belongs to another action or endpoint; nothing was answered");
      }
    }
    const { run, action } = await engine.pendingAction({ runId, actionId, source: endpoint.source });
    // Internal endpoints have no person behind an MCP form; their clients ask in their own UI.
    if (endpoint.source !== "agent_ide" || !showsForms(call)) {
      return unavailable(run, action, endpoint.source === "agent_ide");
    }
    const form = actionForm(run, action, endpoint);
    let reply: PersonReply;
    if (call.era === "modern") {
      const returned = verdict?.kind === "valid"
        ? inputResponse(call.ctx.mcpReq.inputResponses, FORM_KEY)
        : undefined;
      // First call, a state of an earlier instance or past its time, or no reply with it: the form (again).
      if (returned?.kind !== "elicit") return await formRequest(form, call, { runId, actionId });
      reply = returned.action === "accept"
        ? { action: "accept", content: (returned.content ?? {}) as ElicitResult["content"] }
        : { action: returned.action };
    } else {
      reply = await askPerson(form, call, { engine, runId, actionId });
    }
    if (reply.action === "unavailable") {
      const pending = await engine.pendingAction({ runId, actionId, source: endpoint.source });
      return unavailable(pending.run, pending.action, true);
    }
    if (reply.action !== "accept") {
      return { interaction: "dismissed" as const, run: await engine.getRun(runId) };
    }
    const answer = form.read(reply.content);
    const answered = await engine.answerAsk({
      runId,
      actionId,
      answer,
      source: endpoint.source,
      nativeForm: true,
    });
    return { interaction: "answered" as const, run: answered };
  },
});

/**
 * No form could be shown: the action, and for the IDE's agent, when only the person answers it, where they
 * answer it (the internal endpoints' clients are the person's own and ask in their own way).
 */
function unavailable(run: RunView, action: PendingActionView, toAgent: boolean) {
  const what = action.kind === "user_ask_confirmation" ? "this confirmation" : "these questions";
  return {
    interaction: "unavailable" as const,
    run,
    action,
    ...(toAgent && action.answerFrom === "person" ? { message: `${personOnly(run.runId, what)}.` } : {}),
  };
}

/** Whether the client said it shows form elicitations: at `initialize`, or with this request (2026-07-28). */
function showsForms(call: ToolCall): boolean {
  // The SDK's public type of the envelope names none of its keys; the key is its own constant.
  const envelope = call.ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = call.era === "modern"
    ? envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined
    : call.server.getClientCapabilities();
  return capabilities?.elicitation?.form !== undefined;
}

/** What the state the client sent back with this call says, if it sent one. */
async function returnedState(call: ToolCall): Promise<StateVerdict | undefined> {
  const wire = call.ctx.mcpReq.requestState<string>();
  return typeof wire === "string" ? await call.service.requestStates.verify(wire) : undefined;
}

/** The 2026-07-28 form request: the form, and the state that says which action it answers, signed. */
async function formRequest(form: ActionForm, call: ToolCall, action: { runId: string; actionId: string }) {
  const requestState = await call.service.requestStates.issue({ ...action, path: call.endpoint.path });
  return inputRequired({
    inputRequests: {
      [FORM_KEY]: inputRequired.elicit({ message: form.message, requestedSchema: form.requestedSchema }),
    },
    requestState,
  });
}
