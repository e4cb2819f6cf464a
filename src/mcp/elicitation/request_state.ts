/**
 * The `requestState` of MCP 2026-07-28's multi-round-trip requests, as `interact` issues it with the form it
 * asks the client to show: which action the form answers, on which endpoint, signed by this service
 * instance. The key is random, made at start and held in memory only (never written), so a state survives
 * neither a restart nor a copy to another service: the client then gets the form again, freshly signed,
 * and nothing is lost. The signing is the SDK's HMAC codec; the instance id in front of it (in clear) is
 * what tells a state of an earlier instance (asked again) from one altered or made up (refused).
 *
 * @module
 */

import { createRequestStateCodec } from "../sdk.ts";
import { HUMAN_WAIT_MS } from "../endpoints.ts";

/** What a state says: the action a form answers, and the endpoint path it was asked on. */
export interface FormState {
  runId: string;
  actionId: string;
  path: string;
}

/** What came of checking a state the client sent back. */
export type StateVerdict =
  | { kind: "valid"; state: FormState }
  /** Issued by an earlier instance of the service (a restart), or past its time: ask again. */
  | { kind: "stale" }
  /** Not issued by this instance as it is: altered, made up, or not a state at all. */
  | { kind: "forged" };

/** Issues and checks the form states of one service instance. */
export class RequestStates {
  readonly #codec = createRequestStateCodec<FormState>({
    key: crypto.getRandomValues(new Uint8Array(32)),
    // A form may stay open as long as a tool call may wait for a person; past that it is asked again.
    ttlSeconds: HUMAN_WAIT_MS / 1000,
  });

  constructor(private readonly instanceId: string) {}

  /** The signed state of a form answering `state.actionId`. */
  async issue(state: FormState): Promise<string> {
    return `${this.instanceId}.${await this.#codec.mint(state)}`;
  }

  /** Checks a state sent back; never throws (the SDK would answer any throw with a bare -32602). */
  async verify(wire: string): Promise<StateVerdict> {
    const dot = wire.indexOf(".");
    if (dot <= 0 || wire.slice(0, dot) !== this.instanceId) return { kind: "stale" };
    try {
      return { kind: "valid", state: await this.#codec.verify(wire.slice(dot + 1), undefined as never) };
    } catch (error) {
      // The codec's reason is a fixed word; only expiry is the client's honest lateness.
      return (error as Error).message === "expired" ? { kind: "stale" } : { kind: "forged" };
    }
  }
}
