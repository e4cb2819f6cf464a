/**
 * Waiting for a person: one form elicitation on the tool call's own stream, patient enough for a human,
 * with progress heartbeats for clients that asked for them, and withdrawn as soon as the action is answered
 * elsewhere.
 *
 * @module
 */

import { conflict, invalid } from "../../errors.ts";
import type { Engine } from "../../engine/engine.ts";
import { type ElicitResult, ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from "../sdk.ts";
import type { ToolCall } from "../tool.ts";
import { HUMAN_WAIT_MS } from "../endpoints.ts";
import type { ActionForm } from "./form.ts";

/** How often a progress notification says the form is still open, well inside a client's 60 s default. */
export const PROGRESS_EVERY_MS = 15_000;

/** What came of showing the form: the person's reply, or the client could not show it. */
export type PersonReply = ElicitResult | { action: "unavailable" };

/** What identifies the wait: the action that must still be pending when the reply arrives. */
export interface WaitFor {
  engine: Engine;
  runId: string;
  actionId: string;
  /** How often progress beats while the form is open; {@linkcode PROGRESS_EVERY_MS} unless a test says. */
  progressEveryMs?: number;
}

/**
 * Shows `form` and waits for the reply. `CONFLICT` when the action is answered or the Run ends meanwhile
 * (the open form is then cancelled on the client); `INVALID_REQUEST` when the reply does not fit the form.
 * A form that stays open past {@linkcode HUMAN_WAIT_MS} counts as dismissed.
 */
export async function askPerson(form: ActionForm, call: ToolCall, wait: WaitFor): Promise<PersonReply> {
  const { server, ctx } = call;
  const withdrawn = new AbortController();
  const unsubscribe = wait.engine.onRunChanged((run) => {
    if (run.runId === wait.runId && run.pendingAction?.id !== wait.actionId) withdrawn.abort();
  });
  const heartbeat = startProgress(call, wait.progressEveryMs ?? PROGRESS_EVERY_MS);
  try {
    return await server.elicitInput(
      { mode: "form", message: form.message, requestedSchema: form.requestedSchema },
      {
        relatedRequestId: ctx.mcpReq.id,
        signal: AbortSignal.any([ctx.mcpReq.signal, withdrawn.signal]),
        timeout: HUMAN_WAIT_MS,
      },
    );
  } catch (error) {
    if (withdrawn.signal.aborted) {
      throw conflict(
        `action "${wait.actionId}" was answered elsewhere or its Run moved on while the form was open`,
      );
    }
    if (ctx.mcpReq.signal.aborted) throw error;
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) return { action: "cancel" };
    if (!(error instanceof ProtocolError) && !(error instanceof SdkError)) throw error;
    if (error instanceof ProtocolError && error.code === ProtocolErrorCode.InvalidParams) {
      throw invalid(`the form reply does not fit the form (${error.message}); nothing was answered`);
    }
    // The client failed to show the form; the caller can still show the action and use answer_ask.
    return { action: "unavailable" };
  } finally {
    unsubscribe();
    heartbeat?.stop();
  }
}

/** Sends `notifications/progress` now and then while the form is open, when the client gave a token. */
function startProgress({ ctx }: ToolCall, everyMs: number): { stop(): void } | undefined {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let progress = 0;
  const send = () => {
    progress++;
    ctx.mcpReq.notify({
      method: "notifications/progress",
      params: { progressToken, progress, message: "Waiting for the person to answer the form" },
    }).catch(() => {
      // The stream is gone; the elicitation itself reports that.
    });
  };
  // The first beat goes out before the form, so the client knows a person is now being asked.
  send();
  const timer = setInterval(send, everyMs);
  return { stop: () => clearInterval(timer) };
}
