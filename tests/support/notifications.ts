/**
 * Test support for resource notifications: an inbox that records what a real SDK client receives, in order,
 * and awaits the next one with a deadline that fails saying what it waited for.
 *
 * @module
 */

import assert from "node:assert/strict";
import { mcpHeaders, PROTOCOL_VERSION } from "./jsonrpc.ts";
import type { ServedProject } from "./service.ts";
import { type Client, ResourceUpdatedNotificationSchema } from "./sdk_test_client.ts";
import { ResourceListChangedNotificationSchema } from "./sdk_test_client.ts";

/** How long a test waits for a notification before it fails. */
export const NOTIFICATION_WAIT_MS = 30_000;

/** `updated <uri>` or `list_changed`, as received. */
export type Received = string;

/** Every resource notification one client receives, in arrival order. */
export class Inbox {
  readonly received: Received[] = [];
  #waiters: (() => void)[] = [];

  constructor(client: Client) {
    client.setNotificationHandler(
      ResourceUpdatedNotificationSchema,
      (n) => this.#add(`updated ${n.params.uri}`),
    );
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => this.#add("list_changed"));
  }

  /**
   * Resolves with the index of the first notification equal to `expected` at or after `from`; fails after
   * the deadline, showing what did arrive.
   */
  async until(expected: Received, from = 0, ms = NOTIFICATION_WAIT_MS): Promise<number> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `gave up after ${ms / 1000} s waiting for "${expected}"; received: ${
                JSON.stringify(this.received.slice(from))
              }`,
            ),
          ),
        ms,
      );
    });
    const arrived = (async () => {
      while (true) {
        const at = this.received.indexOf(expected, from);
        if (at >= 0) return at;
        await new Promise<void>((resolve) => this.#waiters.push(resolve));
      }
    })();
    try {
      return await Promise.race([arrived, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  #add(entry: Received): void {
    this.received.push(entry);
    for (const wake of this.#waiters.splice(0)) wake();
  }
}

/** Reads a `weft://` resource and parses its one JSON text. */
export async function readJson<T = Record<string, unknown>>(client: Client, uri: string): Promise<T> {
  const { contents } = await client.readResource({ uri });
  const [content] = contents;
  if (!content || !("text" in content)) throw new Error(`${uri} returned no text content`);
  return JSON.parse(content.text) as T;
}

/** One server-sent event: its id (when it has one) and its JSON-RPC message. */
export interface SseEvent {
  id?: string;
  message: { method?: string; params?: { uri?: string }; id?: unknown; result?: unknown };
}

/** The events of a raw SSE response, parsed as they arrive. */
export class SseEvents {
  readonly events: SseEvent[] = [];
  #reader: ReadableStreamDefaultReader<string>;
  #buffer = "";

  constructor(response: Response, readonly name = "the event stream") {
    this.#reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** Reads until an event satisfies `matches` (at or after `from`); fails on end of stream or deadline. */
  async until(
    what: string,
    matches: (event: SseEvent) => boolean,
    from = 0,
    ms = NOTIFICATION_WAIT_MS,
  ): Promise<SseEvent> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(
          new Error(
            `gave up after ${ms / 1000} s waiting for ${what} on ${this.name}; got ${
              JSON.stringify(this.events.slice(from))
            }`,
          ),
        );
      }, ms);
    });
    const found = (async () => {
      while (true) {
        const event = this.events.slice(from).find(matches);
        if (event) return event;
        const { done, value } = await this.#reader.read();
        if (done) throw new Error(`${this.name} ended before ${what}: ${JSON.stringify(this.events)}`);
        this.#parse(value);
      }
    })();
    try {
      return await Promise.race([found, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The URIs of the `updated` notifications received so far, in order. */
  get updated(): string[] {
    return this.events.filter((event) => event.message.method === "notifications/resources/updated")
      .map((event) => event.message.params!.uri!);
  }

  /** Disconnects, as a client whose connection broke. */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }

  #parse(text: string): void {
    this.#buffer += text;
    let end;
    while ((end = this.#buffer.indexOf("\n\n")) >= 0) {
      const block = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      const id = /^id: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (data) this.events.push({ ...(id ? { id } : {}), message: JSON.parse(data) });
    }
  }
}

/** Sends one raw JSON-RPC request on a `/mcp` session and reads its whole response, which must succeed. */
export async function rawCall(
  served: ServedProject,
  session: string,
  method: string,
  params: unknown,
): Promise<void> {
  const response = await fetch(served.url + "/mcp", {
    method: "POST",
    headers: mcpHeaders(served.connection.externalToken, { "mcp-session-id": session }),
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method, params }),
  });
  const text = await response.text();
  assert.equal(response.status, 200, `${method}: ${text}`);
  assert.ok(!text.includes('"error"'), `${method}: ${text}`);
}

/**
 * Opens the GET stream of a raw `/mcp` session, resuming after `lastEventId` when given. A stream the client
 * just dropped may still be registered for a moment (409); a real client retries, and so does this.
 */
export async function openStream(
  served: ServedProject,
  session: string,
  lastEventId?: string,
): Promise<Response> {
  const deadline = Date.now() + NOTIFICATION_WAIT_MS;
  while (true) {
    const response = await fetch(served.url + "/mcp", {
      headers: {
        authorization: `Bearer ${served.connection.externalToken}`,
        accept: "text/event-stream",
        "mcp-session-id": session,
        "mcp-protocol-version": PROTOCOL_VERSION,
        ...(lastEventId ? { "last-event-id": lastEventId } : {}),
      },
    });
    if (response.status !== 409 || Date.now() > deadline) {
      assert.equal(response.status, 200, `GET stream: ${response.status}`);
      return response;
    }
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
