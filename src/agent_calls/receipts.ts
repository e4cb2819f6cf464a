/**
 * The receipts of one agent task: its tool calls run one at a time, each kept under the agent's `toolCallId`
 * with a fingerprint of what was asked, so that a retry gets the retained outcome instead of a second run.
 *
 * @module
 */

import { z } from "../lib/zod.ts";
import { busy, conflict, toWeftError, type WeftError } from "../errors.ts";
import { canonicalJson } from "../lib/canonical_json.ts";

/** The most receipts one task may hold; past it the agent has to complete or fail. */
export const MAX_RECEIPTS = 256;

/** Schema of {@linkcode ReceiptSummary}. */
export const ReceiptSummarySchema = z.object({
  toolCallId: z.string(),
  toolId: z.string(),
  status: z.enum(["running", "succeeded", "failed"]),
});

/**
 * How much retained tool output (its JSON, in bytes) receipts may hold: per task, and across every task of
 * the service. Claims on waiting Runs do not expire, so without these bounds a few agents reading large files
 * could make the service hold gigabytes. A call is refused once the bound is reached, so what is held stays
 * below the bound plus one output per task.
 */
export interface ReceiptLimits {
  taskBytes: number;
  totalBytes: number;
}

/** 16 MiB per task (64 reads of the largest file), 128 MiB for the whole service. */
export const DEFAULT_RECEIPT_LIMITS: ReceiptLimits = {
  taskBytes: 16 * 1024 * 1024,
  totalBytes: 128 * 1024 * 1024,
};

/** The bytes of output every receipt book of one service holds, against its limits. */
export class ReceiptBudget {
  held = 0;
  constructor(readonly limits: ReceiptLimits = DEFAULT_RECEIPT_LIMITS) {}
}

/** What `get_agent_call` shows of a receipt: never its input or output. */
export type ReceiptSummary = z.infer<typeof ReceiptSummarySchema>;
/** Where a tool call stands. */
export type ReceiptStatus = ReceiptSummary["status"];

/** One tool call as the agent asked for it. */
export interface ToolCallRequest {
  toolCallId: string;
  toolId: string;
  input: unknown;
}

interface Receipt extends ReceiptSummary {
  fingerprint: string;
  output?: unknown;
  error?: WeftError;
}

/** The receipts of one task. */
export class ReceiptBook {
  #receipts = new Map<string, Receipt>();
  #running: string | undefined;
  #bytes = 0;
  #released = false;

  constructor(private readonly budget: ReceiptBudget = new ReceiptBudget()) {}

  /** Bytes of output this task's receipts hold. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Gives this task's bytes back to the service's budget; the book is not used afterwards. */
  release(): void {
    this.budget.held -= this.#bytes;
    this.#bytes = 0;
    this.#released = true;
    this.#receipts.clear();
  }

  /** Whether a tool call is running now; completion and failure wait for it. */
  get inFlight(): boolean {
    return this.#running !== undefined;
  }

  /** Summaries in the order the calls were made. */
  summaries(): ReceiptSummary[] {
    return [...this.#receipts.values()].map(({ toolCallId, toolId, status }) => ({
      toolCallId,
      toolId,
      status,
    }));
  }

  /**
   * Runs `execute` for a new `toolCallId`, or answers a retry from the retained receipt. Retryable failures
   * (`BUSY`, `INTERNAL`) leave no receipt, so the same `toolCallId` can simply be tried again.
   */
  async run(request: ToolCallRequest, execute: () => Promise<unknown>): Promise<unknown> {
    const { toolCallId, toolId } = request;
    const fingerprint = canonicalJson({ toolId, input: request.input });
    const existing = this.#receipts.get(toolCallId);
    if (existing) return this.#replay(existing, fingerprint);
    if (this.#running !== undefined) {
      throw busy(
        `tool call "${this.#running}" of this task is still running; tools run one at a time, so wait for ` +
          `its result and then send this call again with the same toolCallId`,
      );
    }
    if (this.#receipts.size >= MAX_RECEIPTS) {
      throw busy(
        `this task already holds ${MAX_RECEIPTS} tool receipts, the most one task may; finish with ` +
          "complete_agent_call (or fail_agent_call) instead of calling more tools",
      );
    }
    this.#checkMemory();
    const receipt: Receipt = { toolCallId, toolId, status: "running", fingerprint };
    this.#receipts.set(toolCallId, receipt);
    this.#running = toolCallId;
    try {
      receipt.output = await execute();
      receipt.status = "succeeded";
      if (!this.#released) {
        const bytes = new TextEncoder().encode(JSON.stringify(receipt.output) ?? "").length;
        this.#bytes += bytes;
        this.budget.held += bytes;
      }
      return receipt.output;
    } catch (error) {
      const classified = toWeftError(error);
      if (classified.retryable) this.#receipts.delete(toolCallId);
      else Object.assign(receipt, { status: "failed", error: classified });
      throw classified;
    } finally {
      this.#running = undefined;
    }
  }

  /** Refuses a new call once this task, or all tasks together, hold as much output as they may. */
  #checkMemory(): void {
    const { taskBytes, totalBytes } = this.budget.limits;
    if (this.#bytes >= taskBytes) {
      throw busy(
        `this task's receipts already hold ${mib(this.#bytes)} of tool output, the most one task may ` +
          `(${
            mib(taskBytes)
          }); finish with complete_agent_call (or fail_agent_call) instead of calling more tools`,
      );
    }
    if (this.budget.held >= totalBytes) {
      throw busy(
        `the service holds ${mib(this.budget.held)} of tool output for open agent tasks, the most it may ` +
          `(${mib(totalBytes)}); retry this call after other tasks complete`,
      );
    }
  }

  #replay(receipt: Receipt, fingerprint: string): unknown {
    if (receipt.fingerprint !== fingerprint) {
      throw conflict(
        `toolCallId "${receipt.toolCallId}" was already used for a different call; a retry must repeat the ` +
          "same toolId and input, and a new call needs a fresh toolCallId",
      );
    }
    if (receipt.status === "running") {
      throw busy(`tool call "${receipt.toolCallId}" is still running; ask again with the same toolCallId`);
    }
    if (receipt.error) throw receipt.error;
    return receipt.output;
  }
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
