/**
 * The service as an agent executor: it watches for Runs whose agent steps the service executes, claims each
 * agent call they publish through the same claim table an IDE's agent uses, and drives it with the model of
 * the step's role. Cancelling the Run aborts the request in flight at once.
 *
 * @module
 */
import type { ClaimTable } from "../agent_calls/claim_table.ts";
import type { Engine } from "../engine/engine.ts";
import type { RunView } from "../engine/views.ts";
import { type AgentCallPort, driveAgentCall } from "./agent_loop.ts";
import { blockCode } from "../engine/model_roles.ts";
import type { ModelConfig } from "./config.ts";
import type { TurnRequest, TurnResponse } from "./turn.ts";
import type { WorkInProgress } from "../lib/work_in_progress.ts";

/** The engine operations the executor uses. */
export type ExecutorEngine = Pick<
  Engine,
  "agentCallModel" | "noteAgentCall" | "failAgentCall" | "onRunChanged"
>;

/**
 * The claim table's operations the executor uses: the same ones behind an IDE agent's tools, so claims,
 * receipts and validation are identical (the service passes its claim table).
 */
export type AgentCallClaims = Pick<ClaimTable, "claim" | "callTool" | "readAsset" | "complete" | "fail">;

/** Options of {@linkcode ModelExecutor}. */
export interface ModelExecutorOptions {
  engine: ExecutorEngine;
  claims: AgentCallClaims;
  /** The configuration as it is on disk now: an edited weft.json applies to the next agent call. */
  config: () => ModelConfig;
  log: (event: Record<string, unknown>) => void;
  /** Where each agent call being driven counts as the service's own work, so an idle exit waits for it. */
  work?: WorkInProgress;
}

interface ActiveCall {
  runId: string;
  controller: AbortController;
  done: Promise<void>;
}

/** Drives the agent calls of `service` Runs; one per Run at a time, as a Run waits on one call. */
export class ModelExecutor {
  readonly #active = new Map<string, ActiveCall>();
  readonly #options: ModelExecutorOptions;
  #stopped = false;
  #unsubscribe: () => void;

  constructor(options: ModelExecutorOptions) {
    this.#options = options;
    this.#unsubscribe = options.engine.onRunChanged((run) => this.#observe(run));
  }

  /** How many agent calls are being driven now. */
  get active(): number {
    return this.#active.size;
  }

  /** Aborts every call in flight and waits for them to end; their Runs stay as they are (a restart interrupts them). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe();
    for (const call of this.#active.values()) call.controller.abort();
    await Promise.all([...this.#active.values()].map((call) => call.done));
  }

  #observe(run: RunView): void {
    for (const [callId, call] of this.#active) {
      if (call.runId === run.runId && run.pendingAgentCall?.id !== callId) call.controller.abort();
    }
    const pending = run.pendingAgentCall;
    if (
      this.#stopped || run.execution.agentExecutor !== "service" || run.status !== "waiting" || !pending ||
      pending.phase !== "available" || this.#active.has(pending.id)
    ) return;
    const controller = new AbortController();
    const call: ActiveCall = { runId: run.runId, controller, done: Promise.resolve() };
    this.#active.set(pending.id, call);
    const ended = this.#options.work?.begin();
    // Started after the change that published the call has been committed and every listener has seen it.
    call.done = Promise.resolve()
      .then(() => this.#drive(run.runId, pending.id, controller.signal))
      .catch((error) =>
        this.#options.log({ event: "model.executor_error", runId: run.runId, detail: String(error) })
      )
      .finally(() => {
        this.#active.delete(pending.id);
        ended?.();
      });
  }

  async #drive(runId: string, callId: string, signal: AbortSignal): Promise<void> {
    const { engine, claims, log } = this.#options;
    if (signal.aborted) return;
    const { task, ownerToken } = await claims.claim(
      { runId, callId, claimId: `service:${callId}` },
      "service",
    );
    const owner = { runId, callId, ownerToken };
    const settings = await engine.agentCallModel(runId, callId);
    // Read now, not at start-up: weft.json and the trust record may have changed while the service ran.
    const config = this.#options.config();
    const resolved = config.resolve(settings.role);
    const readiness = config.readiness(settings.role);
    if (!resolved.ok || !readiness.ready) {
      await claims.fail(owner, readiness.reason ?? "the model role is not ready", blockCode(readiness));
      return;
    }
    const port: AgentCallPort = {
      callTool: (toolCallId, toolId, input) => claims.callTool(owner, { toolCallId, toolId, input }),
      readAsset: (assetId) => claims.readAsset(owner, assetId),
      complete: async (result) => void await claims.complete(owner, result),
      fail: async (message, code) => void await claims.fail(owner, message, code),
      note: async (type, fields) => void await engine.noteAgentCall({ runId, callId, type, fields }),
    };
    const started = performance.now();
    await driveAgentCall({
      task,
      model: resolved.model,
      key: config.keyOf(resolved.model),
      settings,
      port,
      signal,
      send: sendTurn,
      log: (event) => log({ ...event, runId }),
    });
    log({
      event: "model.call_ended",
      runId,
      callId,
      role: settings.role,
      aborted: signal.aborted,
      ms: Math.round(performance.now() - started),
    });
  }
}

/** Loads the SDK on the first model request only, so that starting the service does not pay for it. */
async function sendTurn(request: TurnRequest): Promise<TurnResponse> {
  const { runTurn } = await import("./turn.ts");
  return runTurn(request);
}
