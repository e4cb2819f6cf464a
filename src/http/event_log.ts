/**
 * The bounded event log of one session: the SDK transport's `eventStore`, so that a client whose SSE stream
 * broke reconnects with `Last-Event-ID` and receives exactly the events it missed. It holds what may still
 * need replaying: a request's stream is forgotten once its client's connection has taken all of it
 * ({@linkcode EventLog.delivered}), so a busy session holds only the streams in flight, not its recent
 * history. Within that, it keeps the newest {@linkcode EVENT_LOG_LIMITS} events of all the session's streams;
 * a client that resumes from an event the log no longer holds is told so (the session then asks it to
 * re-read what it subscribes to).
 *
 * Event ids are `<sequence>.<stream id>`: the sequence orders events across streams, and the stream id
 * survives the event's eviction, so even an old id says which stream it belonged to.
 *
 * @module
 */

import type { JSONRPCMessage } from "../mcp/sdk.ts";
import { DeliveredStreams } from "./delivered_streams.ts";

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
  /** Per stream, the newest sequence the bounds evicted; at most `limits.events` streams are remembered. */
  readonly #evicted = new Map<string, number>();
  /** The newest sequence of a stream no longer remembered in `#evicted`: any stream may have lost up to it. */
  #forgottenEvictions = 0;
  /** Request streams forgotten as delivered; at most `limits.events` are remembered. */
  readonly #delivered: DeliveredStreams;

  constructor(private readonly limits = EVENT_LOG_LIMITS) {
    this.#delivered = new DeliveredStreams(limits.events);
  }

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
      const gone = this.#events.shift()!;
      this.#chars -= gone.json?.length ?? 0;
      this.#noteEviction(gone);
    }
    return Promise.resolve(`${seq}.${streamId}`);
  }

  /**
   * Forgets the request stream that `eventId` belongs to: its client's connection took every event of it, so
   * none will be asked for again. The standalone stream stays: it never ends while its session lives.
   */
  delivered(eventId: string): void {
    const streamId = parse(eventId)?.streamId;
    if (streamId === undefined || streamId === STANDALONE_STREAM) return;
    let kept = 0;
    for (const event of this.#events) {
      if (event.streamId === streamId) this.#chars -= event.json?.length ?? 0;
      else this.#events[kept++] = event;
    }
    this.#events.length = kept;
    this.#evicted.delete(streamId);
    this.#delivered.add(streamId);
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

  /**
   * What `eventId` resumes, or undefined when this log never issued it or its stream was delivered whole. A
   * client resumes a delivered stream only if the end of it was lost on the way after all (its connection
   * died with the last bytes in flight): it is refused (the SDK answers 400) rather than left waiting on a
   * stream that will carry nothing more.
   */
  resumption(eventId: string): Resumption | undefined {
    const id = parse(eventId);
    if (!id || id.seq >= this.#next || this.#delivered.has(id.streamId)) return undefined;
    const evictedThrough = this.#evicted.get(id.streamId) ?? this.#forgottenEvictions;
    return { streamId: id.streamId, missed: evictedThrough > id.seq };
  }

  #noteEviction(event: StoredEvent): void {
    // Re-inserted so that the map's first entry is always the stream evicted from longest ago.
    this.#evicted.delete(event.streamId);
    this.#evicted.set(event.streamId, event.seq);
    if (this.#evicted.size > this.limits.events) {
      const [oldest, seq] = this.#evicted.entries().next().value!;
      this.#evicted.delete(oldest);
      // Unknown streams are then assumed to have lost up to here: a resume may be told "missed" needlessly
      // (it re-reads), never the reverse.
      this.#forgottenEvictions = Math.max(this.#forgottenEvictions, seq);
    }
  }
}

function parse(eventId: string): { seq: number; streamId: string } | undefined {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{1,64})$/.exec(eventId);
  return match ? { seq: Number(match[1]), streamId: match[2] } : undefined;
}
