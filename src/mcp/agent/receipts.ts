/**
 * The receipts of one agent task: its tool calls run one at a time, each kept under the agent's `toolCallId`
 * with a fingerprint of what was asked, so that a retry gets the retained outcome instead of a second run.
 *
 * @module
 */

import { z } from "zod";
import { busy, conflict, toWeftError, type WeftError } from "../../errors.ts";
import { canonicalJson } from "../../lib/canonical_json.ts";

/** The most receipts one task may hold; past it the agent has to complete or fail. */
export const MAX_RECEIPTS = 256;

/** Schema of {@linkcode ReceiptSummary}. */
export const ReceiptSummarySchema = z.object({
  toolCallId: z.string(),
  toolId: z.string(),
  status: z.enum(["running", "succeeded", "failed"]),
});
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
    const receipt: Receipt = { toolCallId, toolId, status: "running", fingerprint };
    this.#receipts.set(toolCallId, receipt);
    this.#running = toolCallId;
    try {
      receipt.output = await execute();
      receipt.status = "succeeded";
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
