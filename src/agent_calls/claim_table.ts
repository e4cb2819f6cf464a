/**
 * The claim table of the agent-task protocol (src/mcp/agent_protocol.md): who owns which agent call, with which
 * owner token, which tool receipts the task holds, and the retained outcome of a finished call. It lives in
 * process memory only; a restart interrupts such Runs instead of restoring their claims.
 *
 * It is the one way to an agent call, for an IDE's agent (through the MCP tools) and the service's model
 * alike. Each operation checks the claim in memory and then makes one engine call, which reads the Run once
 * and refuses a call the Run no longer waits on. Every change of a claimed call passes through here; only a
 * cancel or a retry, which a person makes, ends claims from outside, and the table hears of those from the
 * engine's change feed.
 *
 * @module
 */

import { z } from "../lib/zod.ts";
import { busy, conflict, invalid } from "../errors.ts";
import type { AgentCallFailureCode } from "../engine/agent_call_operations.ts";
import type { Engine } from "../engine/engine.ts";
import {
  type AgentAssetView,
  AgentCallPhaseSchema,
  type AgentExecutor,
  type AgentTaskDefinition,
  AgentTaskDefinitionSchema,
  isActive,
  type RunView,
} from "../engine/views.ts";
import { constantTimeEqual, newToken } from "../lib/tokens.ts";
import { canonicalJson } from "../lib/canonical_json.ts";
import {
  ReceiptBook,
  ReceiptBudget,
  type ReceiptLimits,
  ReceiptSummarySchema,
  type ToolCallRequest,
} from "./receipts.ts";

/** The engine operations the protocol drives; the engine knows nothing of claims or tokens. */
export type AgentCallEngine = Pick<
  Engine,
  | "getRun"
  | "agentCall"
  | "claimAgentCall"
  | "runAgentTool"
  | "readAgentAsset"
  | "completeAgentCall"
  | "failAgentCall"
  | "onRunChanged"
>;

/** Names one agent call: the Run's `pendingAgentCall.id` is the `callId`. */
export interface TaskRef {
  runId: string;
  callId: string;
}

/** A task reference that proves ownership. */
export interface OwnerRef extends TaskRef {
  ownerToken: string;
}

/** Schema of {@linkcode AgentCallView}. */
export const AgentCallViewSchema = z.object({
  runId: z.string(),
  callId: z.string(),
  agentId: z.string(),
  phase: AgentCallPhaseSchema,
  task: AgentTaskDefinitionSchema,
  receipts: z.array(ReceiptSummarySchema),
});
/** What `get_agent_call` shows: the task and its progress, never the owner token or the claim id. */
export type AgentCallView = z.infer<typeof AgentCallViewSchema>;

/** How an owned call ended, kept so that an identical retry gets the same answer. */
interface Settlement {
  kind: "completed" | "failed";
  fingerprint: string;
  run: RunView;
}

interface Claim extends TaskRef {
  claimId: string;
  ownerToken: string;
  task: AgentTaskDefinition;
  receipts: ReceiptBook;
  settlement?: Settlement;
  /**
   * The completion or failure being recorded now: an identical one sent meanwhile (a client's retry) waits for
   * its answer instead of reaching the engine a second time.
   */
  settling?: { kind: Settlement["kind"]; fingerprint: string; run: Promise<RunView> };
}

/**
 * How many ended Runs keep their last settled call for identical retries. A Run that has ended starts no
 * next agent call that would release it, so without a bound every finished Run would stay in memory.
 */
export const RETAINED_ENDED_RUNS = 256;

/** The claims of one service, at most one per Run (a Run waits on one agent call at a time). */
export class ClaimTable {
  #claims = new Map<string, Claim>();
  /** Runs that ended with a settled claim still retained, oldest first. */
  #ended = new Set<string>();
  /** The bytes of tool output all tasks' receipts hold, against the service's bounds. */
  readonly receiptBudget: ReceiptBudget;

  constructor(private readonly engine: AgentCallEngine, receiptLimits?: ReceiptLimits) {
    this.receiptBudget = new ReceiptBudget(receiptLimits);
    engine.onRunChanged((run, eventTypes) => this.#observe(run, eventTypes));
  }

  /** The task of a pending call with its phase and receipts. */
  async describe(ref: TaskRef): Promise<AgentCallView> {
    const { task, phase } = await this.engine.agentCall(ref.runId, ref.callId);
    const held = this.#claims.get(ref.runId);
    const claim = held?.callId === ref.callId ? held : undefined;
    return {
      runId: ref.runId,
      callId: ref.callId,
      agentId: task.agentId,
      phase,
      task: claim?.task ?? task,
      receipts: claim?.receipts.summaries() ?? [],
    };
  }

  /**
   * Claims a pending call for `claimId`, or resumes the claim that `claimId` already holds. `claimant` is who
   * asks: an IDE's agent (`mcp_client`) or the service's model executor; each claims only its own Runs.
   */
  async claim(
    ref: TaskRef & { claimId: string },
    claimant: AgentExecutor = "mcp_client",
  ): Promise<{ task: AgentTaskDefinition; ownerToken: string }> {
    const held = this.#claims.get(ref.runId);
    if (held?.callId === ref.callId && !held.settlement) {
      if (!constantTimeEqual(ref.claimId, held.claimId)) {
        throw conflict(
          `agent call ${ref.callId} of Run ${ref.runId} is already claimed by another claimant; ` +
            "only the claimId that claimed it can resume it",
        );
      }
      return { task: held.task, ownerToken: held.ownerToken };
    }
    const { task } = await this.engine.claimAgentCall({ runId: ref.runId, callId: ref.callId, claimant });
    // Replacing the Run's previous claim drops its retained completion: the next agent call has started.
    const claim: Claim = {
      ...ref,
      ownerToken: newToken(),
      task,
      receipts: new ReceiptBook(this.receiptBudget),
    };
    this.#claims.get(ref.runId)?.receipts.release();
    this.#claims.set(ref.runId, claim);
    return { task, ownerToken: claim.ownerToken };
  }

  /** Runs one declared tool of the task, serially, or answers a retry from its receipt. */
  async callTool(ref: OwnerRef, request: ToolCallRequest): Promise<unknown> {
    const claim = await this.#owned(ref);
    if (!claim.task.tools.some((tool) => tool.id === request.toolId)) {
      const declared = claim.task.tools.map((tool) => `"${tool.id}"`).join(", ") || "none";
      throw invalid(`toolId "${request.toolId}" is not a tool of this task; its declared tools: ${declared}`);
    }
    return await claim.receipts.run(
      request,
      () =>
        this.engine.runAgentTool({
          runId: ref.runId,
          callId: ref.callId,
          toolId: request.toolId,
          input: request.input,
        }),
    );
  }

  /** Reads one declared Skill asset of the task. */
  async readAsset(ref: OwnerRef, assetId: string): Promise<AgentAssetView> {
    const claim = await this.#owned(ref);
    const declared = claim.task.skills.some((skill) => skill.assets.some((asset) => asset.id === assetId));
    // The id is not echoed: an agent that sends a path would otherwise see it reflected in the error.
    if (!declared) {
      throw invalid("assetId must be one of the ids listed in task.skills[].assets, never a path");
    }
    return await this.engine.readAgentAsset({ runId: ref.runId, callId: ref.callId, assetId });
  }

  /** Completes the call with the agent's result; the engine validates it and continues the step. */
  complete(ref: OwnerRef, result: unknown): Promise<RunView> {
    const value = parseRawJson(result);
    return this.#settle(
      ref,
      "completed",
      value,
      () => this.engine.completeAgentCall({ runId: ref.runId, callId: ref.callId, result: value }),
    );
  }

  /** Fails the call, and with it the Run, with the agent's message (the service's executor adds a code). */
  fail(ref: OwnerRef, message: string, code?: AgentCallFailureCode): Promise<RunView> {
    return this.#settle(
      ref,
      "failed",
      message,
      () => this.engine.failAgentCall({ runId: ref.runId, callId: ref.callId, message, code }),
    );
  }

  async #settle(
    ref: OwnerRef,
    kind: Settlement["kind"],
    payload: unknown,
    settle: () => Promise<RunView>,
  ): Promise<RunView> {
    const claim = await this.#held(ref);
    const fingerprint = canonicalJson(payload);
    if (claim.settlement) {
      if (claim.settlement.kind === kind && claim.settlement.fingerprint === fingerprint) {
        return claim.settlement.run;
      }
      throw conflict(
        `agent call ${ref.callId} was already ${claim.settlement.kind} with a different outcome; only an ` +
          "identical retry gets the retained result. Follow the Run it returned (get_run)",
      );
    }
    if (claim.settling) {
      if (claim.settling.kind === kind && claim.settling.fingerprint === fingerprint) {
        return await claim.settling.run;
      }
      throw busy(
        `agent call ${ref.callId} is being ${claim.settling.kind} right now; send this again after its answer`,
      );
    }
    if (claim.receipts.inFlight) {
      throw busy("a tool call of this task is still running; wait for its result, then send this again");
    }
    const pending = settle();
    claim.settling = { kind, fingerprint, run: pending };
    let run: RunView;
    try {
      run = await pending;
    } finally {
      claim.settling = undefined;
    }
    claim.settlement = { kind, fingerprint, run };
    claim.receipts.release();
    claim.receipts = new ReceiptBook(this.receiptBudget);
    // A settled call's Run is never cancelled (a cancel first refuses the settlement): not active is ended.
    if (!isActive(run.status)) this.#retainEnded(run.runId);
    return run;
  }

  /** The claim `ref` owns and has not settled; whether its Run still waits on it, the engine call checks. */
  async #owned(ref: OwnerRef): Promise<Claim> {
    const claim = await this.#held(ref);
    if (claim.settlement) {
      throw conflict(
        `agent call ${ref.callId} is already ${claim.settlement.kind}; follow the Run it returned`,
      );
    }
    return claim;
  }

  /** The claim `ref` proves ownership of, settled or not. */
  async #held(ref: OwnerRef): Promise<Claim> {
    const claim = this.#claims.get(ref.runId);
    const tokenMatches = constantTimeEqual(ref.ownerToken, claim?.ownerToken ?? "");
    if (claim && claim.callId === ref.callId && tokenMatches) return claim;
    if ((await this.engine.getRun(ref.runId)).status === "cancelled") {
      throw conflict(
        `Run ${ref.runId} was cancelled; ownership of its agent calls ended and late results are refused`,
      );
    }
    throw conflict(
      `this ownerToken does not own agent call ${ref.callId} of Run ${ref.runId}: claim it first with ` +
        "claim_agent_call (claims end with the call and do not survive a service restart)",
    );
  }

  /**
   * A person's cancel or retry ends the Run's claim (owner calls then get `CONFLICT`); an ended Run keeps its
   * settled claim for identical retries, within {@linkcode RETAINED_ENDED_RUNS}. The table's own operations
   * neither cancel nor retry, so what it hears about its own changes never drops a claim.
   */
  #observe(run: RunView, eventTypes: readonly string[]): void {
    if (!this.#claims.has(run.runId)) return;
    if (run.status === "cancelled" || eventTypes.includes("run_retried")) {
      this.#drop(run.runId);
      this.#ended.delete(run.runId);
    } else if (!isActive(run.status)) this.#retainEnded(run.runId);
  }

  /** Keeps an ended Run's settled claim for retries, releasing the oldest beyond the bound. */
  #retainEnded(runId: string): void {
    this.#ended.add(runId);
    for (const oldest of this.#ended) {
      if (this.#ended.size <= RETAINED_ENDED_RUNS) break;
      this.#ended.delete(oldest);
      this.#drop(oldest);
    }
  }

  /** Forgets a Run's claim and gives the memory its receipts held back. */
  #drop(runId: string): void {
    this.#claims.get(runId)?.receipts.release();
    this.#claims.delete(runId);
  }

  /** How many claims are held, for tests that prove finished work is released. */
  get size(): number {
    return this.#claims.size;
  }
}

/**
 * The agent's result as a JSON value. Agents are told to submit raw JSON; some send it as JSON text, which is
 * parsed here since an output schema always describes an object, never a string.
 */
function parseRawJson(result: unknown): unknown {
  if (typeof result !== "string") return result;
  try {
    return JSON.parse(result);
  } catch {
    return result;
  }
}
