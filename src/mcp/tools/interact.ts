/**
 * The `interact` tool: asks the person directly through an MCP form (elicitation) and submits their reply
 * exactly as `answer_ask` would, or says the form is unavailable so the client can ask them itself.
 *
 * @module
 */

import { z } from "../../lib/zod.ts";
import { RunViewSchema } from "../../engine/views.ts";
import { defineTool } from "../tool.ts";
import { actionForm } from "../elicitation/form.ts";
import { askPerson } from "../elicitation/ask_person.ts";
import { IdSchema } from "./shared_inputs.ts";
import { personOnly } from "../../engine/answers.ts";
import type { PendingActionView, RunView } from "../../engine/views.ts";

const PendingActionSchema = RunViewSchema.shape.pendingAction.unwrap();

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
    const { service, endpoint, server } = call;
    const { engine } = service;
    const { run, action } = await engine.pendingAction({ runId, actionId, source: endpoint.source });
    // Internal endpoints have no person behind an MCP form; their clients ask in their own UI.
    if (endpoint.source !== "agent_ide" || !server.getClientCapabilities()?.elicitation?.form) {
      return unavailable(run, action, endpoint.source === "agent_ide");
    }
    const form = actionForm(run, action, endpoint);
    const reply = await askPerson(form, call, { engine, runId, actionId });
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
