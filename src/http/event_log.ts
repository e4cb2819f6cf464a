/**
 * The bounded event log of one session: the SDK transport's `eventStore`, so that a client whose SSE stream
 * broke reconnects with `Last-Event-ID` and receives exactly the events it missed. It keeps the newest
 * {@linkcode EVENT_LOG_LIMITS} events of all the session's streams; a client that resumes from an event the
 * log no longer holds is told so (the session then asks it to re-read what it subscribes to).
 *
 * Event ids are `<sequence>.<stream id>`: the sequence orders events across streams, and the stream id
 * survives the event's eviction, so even an old id says which stream it belonged to.
 *
 * @module
 */

import type { JSONRPCMessage } from "../mcp/sdk.ts";

/** How much one session's log keeps: the newest events up to both bounds. */
export const EVENT_LOG_LIMITS = { events: 256, chars: 512 * 1024 };

/** The SDK's id of the standalone GET stream. */
export const STANDALONE_STREAM = "_GET_stream";

interface StoredEvent {
  seq: number;
  streamId: string;
  /** Serialized once when stored: the size bound is exact and a replay costs one parse. */
  json: string | undefined;
}

/** What a `Last-Event-ID` resumes. */
export interface Resumption {
  streamId: string;
  /** Events after it were evicted: the client cannot be given everything it missed. */
  missed: boolean;
}

/** One session's event log (implements the SDK's `EventStore`). */
export class EventLog {
  readonly #events: StoredEvent[] = [];
  #next = 1;
  #chars = 0;

  constructor(private readonly limits = EVENT_LOG_LIMITS) {}

  /** Events held now (for tests and status). */
  get size(): number {
    return this.#events.length;
  }

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const seq = this.#next++;
    // The SDK stores an empty object as the priming event of a stream: an id to resume from, nothing to replay.
    const json = Object.keys(message).length ? JSON.stringify(message) : undefined;
    this.#events.push({ seq, streamId, json });
    this.#chars += json?.length ?? 0;
    while (this.#events.length > this.limits.events || this.#chars > this.limits.chars) {
      this.#chars -= this.#events.shift()!.json?.length ?? 0;
    }
    return Promise.resolve(`${seq}.${streamId}`);
  }

  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return Promise.resolve(this.resumption(eventId)?.streamId);
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const resumption = this.resumption(lastEventId);
    if (!resumption) throw new Error("unknown event id");
    const after = parse(lastEventId)!.seq;
    for (const event of this.#events.slice()) {
      if (event.seq <= after || event.streamId !== resumption.streamId || event.json === undefined) continue;
      await send(`${event.seq}.${event.streamId}`, JSON.parse(event.json));
    }
    return resumption.streamId;
  }

  /** What `eventId` resumes, or undefined when this log never issued it. */
  resumption(eventId: string): Resumption | undefined {
    const id = parse(eventId);
    if (!id || id.seq >= this.#next) return undefined;
    const oldest = this.#events[0]?.seq ?? this.#next;
    // Everything after `id` up to `oldest` is gone when `oldest` is not the very next event.
    return { streamId: id.streamId, missed: oldest > id.seq + 1 };
  }
}

function parse(eventId: string): { seq: number; streamId: string } | undefined {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{1,64})$/.exec(eventId);
  return match ? { seq: Number(match[1]), streamId: match[2] } : undefined;
}
