/**
 * The messages one agent call sends its model, bounded in bytes. Each request carries the whole
 * conversation, so it grows with every turn; without a bound, a model answering with a 15 MiB tool call per
 * turn (each response within its own cap) had one Run hold gigabytes and stall every endpoint.
 *
 * @module
 */
import type { ModelMessage } from "ai";
import { ModelFailure } from "./failures.ts";

/** The most one agent call's conversation may hold, in bytes of JSON (UTF-8): prompt, turns, tool results. */
export const MAX_CONVERSATION_BYTES = 8 * 1024 * 1024;

/** The largest input one model tool call may carry, in bytes of JSON; a larger one is refused unrun. */
export const MAX_TOOL_INPUT_BYTES = 1024 * 1024;

const MIB = 1024 * 1024;

/** The conversation of one agent call, refusing (`BUDGET_EXCEEDED`) to grow past its bound. */
export class Conversation {
  readonly messages: ModelMessage[] = [];
  #bytes = 0;

  /** `who` names the model role in failure messages. */
  constructor(readonly who: string) {}

  /** How many bytes it holds. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Keeps `messages`, or throws when they would take the conversation past {@linkcode MAX_CONVERSATION_BYTES}. */
  add(...messages: ModelMessage[]): void {
    const bytes = messages.reduce((sum, message) => sum + jsonBytes(message), 0);
    if (this.#bytes + bytes > MAX_CONVERSATION_BYTES) {
      throw new ModelFailure(
        "BUDGET_EXCEEDED",
        `${this.who}: the conversation of this agent call would hold ${this.#bytes + bytes} bytes, more ` +
          `than the ${MAX_CONVERSATION_BYTES / MIB} MiB one agent call may keep`,
      );
    }
    this.messages.push(...messages);
    this.#bytes += bytes;
  }

  /** Throws when a tool call carries more than {@linkcode MAX_TOOL_INPUT_BYTES}, before it is kept or run. */
  checkToolInputs(calls: readonly { toolName: string; input: unknown }[]): void {
    for (const call of calls) {
      const bytes = jsonBytes(call.input);
      if (bytes > MAX_TOOL_INPUT_BYTES) {
        throw new ModelFailure(
          "BUDGET_EXCEEDED",
          `${this.who} called "${call.toolName}" with ${bytes} bytes of input, more than the ` +
            `${MAX_TOOL_INPUT_BYTES / MIB} MiB one tool call may carry`,
        );
      }
    }
  }
}

function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value) ?? "").length;
}
