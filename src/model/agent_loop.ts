/**
 * One agent call driven by the service's model: request, run the tools it calls (through the same receipts
 * an IDE's agent uses), repeat until it submits a result the engine accepts, within the call's budgets.
 * Every turn is on the timeline before the next request is sent; the key and the prompt never are.
 *
 * @module
 */
import type { AgentCallFailureCode, AgentCallNote } from "../engine/agent_call_operations.ts";
import type { ModelCallSettings } from "../engine/model_roles.ts";
import type { AgentAssetView, AgentTaskDefinition } from "../engine/views.ts";
import { toWeftError, WeftError } from "../errors.ts";
import { DEFAULT_TIMEOUT_SECONDS, type ResolvedModel } from "./config.ts";
import { Conversation } from "./conversation.ts";
import { classifyRequestFailure, isTransient, ModelFailure, retryAfterMs } from "./failures.ts";
import {
  offeredTools,
  openingMessage,
  repairMessage,
  type StructuredOutputMode,
  systemContent,
} from "./prompt.ts";
import type { TurnRequest, TurnResponse } from "./turn.ts";

/** What the loop may do to its agent call; the executor binds it to the claim it holds. */
export interface AgentCallPort {
  callTool(toolCallId: string, toolId: string, input: unknown): Promise<unknown>;
  readAsset(assetId: string): Promise<AgentAssetView>;
  /** Submits the result; rejects with `AGENT_OUTPUT_INVALID` and the violations when it does not fit. */
  complete(result: unknown): Promise<void>;
  fail(message: string, code: AgentCallFailureCode): Promise<void>;
  note(type: AgentCallNote, fields: Record<string, unknown>): Promise<void>;
}

/** Everything one agent call needs. */
export interface AgentLoopInput {
  task: AgentTaskDefinition;
  model: ResolvedModel;
  key: string | undefined;
  settings: ModelCallSettings;
  port: AgentCallPort;
  /** Aborted when the Run is cancelled or the service stops: the loop ends without failing the Run. */
  signal: AbortSignal;
  /** Sends one request (the lazily loaded SDK; tests of the loop may pass their own). */
  send: (request: TurnRequest) => Promise<TurnResponse>;
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Where an unexpected failure's detail goes (the service log); the Run keeps a generic message. */
  log?: (event: Record<string, unknown>) => void;
}

/** How often one request is sent again after 429 or a 5xx before the call fails. */
export const MAX_TRANSIENT_RETRIES = 3;

/** Drives the agent call to completion or to a classified failure; resolves either way, never rejects. */
export async function driveAgentCall(input: AgentLoopInput): Promise<void> {
  try {
    await loop(input);
  } catch (error) {
    if (input.signal.aborted) return;
    if (!(error instanceof ModelFailure)) input.log?.({ event: "model.call_error", detail: String(error) });
    const failure = error instanceof ModelFailure ? error : unexpected(error);
    try {
      await input.port.fail(failure.message, failure.code);
    } catch {
      // The call ended meanwhile (cancelled, or settled): there is nothing left to fail.
    }
  }
}

async function loop(input: AgentLoopInput): Promise<void> {
  const { task, model, settings, port } = input;
  const now = input.now ?? Date.now;
  const mode: StructuredOutputMode = model.entry.structuredOutput ?? "tool";
  const offered = offeredTools(task, mode);
  const who = `model role "${model.role}" (${model.entry.provider} ${model.entry.model})`;
  const deadline = now() + settings.maxSeconds * 1000;
  const conversation = new Conversation(who);
  conversation.add({ role: "user", content: openingMessage(task, offered) });
  const system = systemContent(task, mode);
  let toolCalls = 0;
  let repairs = 0;
  let receipt = 0;
  for (let turn = 1;; turn++) {
    if (turn > settings.maxTurns) {
      throw new ModelFailure(
        "BUDGET_EXCEEDED",
        `${who} used its ${settings.maxTurns} model turns without submitting a valid result`,
      );
    }
    const started = now();
    const response = await request(
      input,
      {
        entry: model.entry,
        key: input.key,
        system,
        messages: conversation.messages,
        tools: offered.tools,
        ...(mode === "tool" ? {} : { responseFormat: { mode, schema: task.outputSchema } }),
        toolChoice: mode === "tool" ? "required" : "auto",
        signal: input.signal,
      },
      deadline,
      who,
      now,
    );
    await port.note("model_turn", {
      turn,
      role: model.role,
      model: model.entry.model,
      ms: now() - started,
      inputTokens: response.inputTokens ?? null,
      outputTokens: response.outputTokens ?? null,
      toolCalls: response.toolCalls.map((call) => call.toolName),
    });
    conversation.checkToolInputs(response.toolCalls);
    conversation.add(...response.messages);

    let result: { value: unknown; toolCallId?: string } | undefined;
    const results: { toolCallId: string; toolName: string; value: unknown }[] = [];
    for (const call of response.toolCalls) {
      if (call.toolName === offered.resultTool) {
        result ??= { value: call.input, toolCallId: call.toolCallId };
        continue;
      }
      toolCalls++;
      if (toolCalls > settings.maxToolCalls) {
        throw new ModelFailure(
          "BUDGET_EXCEEDED",
          `${who} called tools more than the ${settings.maxToolCalls} one agent call may`,
        );
      }
      results.push({ ...call, value: await runTool(port, offered.assetTool, call, `mc${++receipt}`) });
    }
    if (!offered.resultTool && response.toolCalls.length === 0) result = { value: parseJson(response.text) };
    if (!result) {
      if (response.toolCalls.length === 0) {
        conversation.add({
          role: "user",
          content: repairMessage("it was plain text, not a result", offered),
        });
        if (++repairs > settings.maxRepairs) {
          throw invalidAfterRepairs(who, settings, "no result was submitted");
        }
      } else pushToolResults(conversation, results);
      continue;
    }
    const verdict = await submit(port, result.value);
    if (verdict === true) return;
    if (++repairs > settings.maxRepairs) throw invalidAfterRepairs(who, settings, verdict);
    const rejection = { error: { code: "AGENT_OUTPUT_INVALID", message: verdict } };
    if (result.toolCallId) {
      results.push({ toolCallId: result.toolCallId, toolName: offered.resultTool!, value: rejection });
      pushToolResults(conversation, results);
    } else {
      pushToolResults(conversation, results);
      conversation.add({ role: "user", content: repairMessage(verdict, offered) });
    }
  }
}

/** One request, sent again after 429 or a 5xx when the server's wait fits the call's wall time. */
async function request(
  input: AgentLoopInput,
  turn: TurnRequest,
  deadline: number,
  who: string,
  now: () => number,
): Promise<TurnResponse> {
  const sleep = input.sleep ?? abortableSleep;
  const secrets = input.key ? [input.key] : [];
  for (let attempt = 0;; attempt++) {
    const left = deadline - now();
    if (left <= 0) {
      throw new ModelFailure(
        "BUDGET_EXCEEDED",
        `${who} did not finish within ${input.settings.maxSeconds} s`,
      );
    }
    const timeoutMs = Math.min(left, (input.model.entry.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000);
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    try {
      return await input.send({ ...turn, signal: AbortSignal.any([turn.signal, timeout.signal]) });
    } catch (error) {
      if (input.signal.aborted) throw error;
      if (timeout.signal.aborted) {
        throw new ModelFailure(
          timeoutMs < (input.model.entry.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000
            ? "BUDGET_EXCEEDED"
            : "MODEL_UNAVAILABLE",
          `${who}: no answer within ${Math.round(timeoutMs / 100) / 10} s`,
        );
      }
      if (!isTransient(error) || attempt >= MAX_TRANSIENT_RETRIES) {
        throw classifyRequestFailure(error, who, secrets);
      }
      const wait = retryAfterMs(error) ?? 500 * 2 ** attempt;
      if (now() + wait >= deadline) {
        const failure = classifyRequestFailure(error, who, secrets);
        throw new ModelFailure(
          failure.code,
          `${failure.message} (it asked to wait ${Math.ceil(wait / 1000)} s, past the call's wall time)`,
        );
      }
      await sleep(wait, input.signal);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Runs one tool call; a classified failure goes back to the model as the tool's result. */
async function runTool(
  port: AgentCallPort,
  assetTool: string | undefined,
  call: { toolName: string; input: unknown },
  toolCallId: string,
): Promise<unknown> {
  try {
    const output = call.toolName === assetTool
      ? await port.readAsset(String((call.input as { assetId?: unknown } | null)?.assetId ?? ""))
      : await port.callTool(toolCallId, call.toolName, call.input ?? {});
    await port.note("model_tool_call", { toolId: call.toolName, outcome: "ok" });
    return output;
  } catch (error) {
    const classified = toWeftError(error);
    // A call that ended meanwhile (cancelled, interrupted) ends the loop; the model cannot fix that.
    if (classified.code === "CONFLICT" || classified.code === "NOT_FOUND") throw error;
    await port.note("model_tool_call", { toolId: call.toolName, outcome: classified.code });
    return { error: { code: classified.code, message: classified.message } };
  }
}

/** True when the engine accepted the result; the violations when it did not. */
async function submit(port: AgentCallPort, value: unknown): Promise<true | string> {
  try {
    await port.complete(value);
    return true;
  } catch (error) {
    if (error instanceof WeftError && error.code === "AGENT_OUTPUT_INVALID") return error.message;
    throw error;
  }
}

function pushToolResults(
  conversation: Conversation,
  results: { toolCallId: string; toolName: string; value: unknown }[],
): void {
  if (!results.length) return;
  conversation.add({
    role: "tool",
    content: results.map(({ toolCallId, toolName, value }) => ({
      type: "tool-result" as const,
      toolCallId,
      toolName,
      output: { type: "json" as const, value: (value ?? null) as never },
    })),
  });
}

function parseJson(text: string): unknown {
  const trimmed = text.trim().replace(/^```(?:json)?\s*|\s*```$/g, "");
  try {
    return JSON.parse(trimmed);
  } catch {
    return trimmed;
  }
}

function invalidAfterRepairs(who: string, settings: ModelCallSettings, last: string): ModelFailure {
  return new ModelFailure(
    "AGENT_OUTPUT_INVALID",
    `${who} did not submit a valid result after ${settings.maxRepairs} repairs; last: ${last}`,
  );
}

function unexpected(error: unknown): ModelFailure {
  const classified = toWeftError(error);
  return classified.code === "INTERNAL"
    ? new ModelFailure(
      "AGENT_CALL_FAILED",
      "the service's model executor failed unexpectedly; the log has details",
    )
    : new ModelFailure("AGENT_CALL_FAILED", classified.message);
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal.removeEventListener("abort", done);
      clearTimeout(timer);
      if (signal.aborted) reject(signal.reason);
      else resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
