/**
 * A response body that knows whether its client keeps up. It moves the SDK's stream into a queue of its own
 * as soon as chunks arrive, so the queue's length is exactly what the client has not read yet: above the
 * soft bound the body stops being `writable` (the session then coalesces instead of sending); past the hard
 * bound the client is not reading at all and the stream is cut, to be resumed with `Last-Event-ID`, rather
 * than grow for as long as the client stays away.
 *
 * A quiet stream would never notice that its client is gone: nothing is written, so nothing fails, and the
 * session it keeps busy never expires. So the owner calls {@linkcode MeteredBody.keepAlive} on a fixed
 * interval: a stream with nothing sent since the last call gets an SSE comment, which a vanished client's
 * connection fails to take (the stream then ends); a chunk still unread a whole interval after it was queued
 * means the client stopped reading, and the stream is cut.
 *
 * The body closes only once its client's connection has taken every chunk, so its end says whether the
 * stream was delivered whole: the session's event log then forgets it (`event_log.ts`).
 *
 * @module
 */

import type { StreamMeter } from "../mcp/resources/subscriptions.ts";

/** Unread chunks (SSE events) at which a body stops taking notifications, and at which it is cut. */
export const BODY_LIMITS = { soft: 8, hard: 256 };

/** An SSE comment: clients skip it, but it proves the connection still takes bytes. */
const KEEP_ALIVE = new TextEncoder().encode(": keep-alive\n\n");

/** A metered copy of a response body. */
export class MeteredBody implements StreamMeter {
  readonly body: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #waiters: (() => void)[] = [];
  #ended = false;
  /** Chunks queued since the start, and that count at the previous keep-alive call. */
  #queued = 0;
  #queuedAtLastCall = 0;
  /** The SDK's stream has ended; the body closes when the client has taken what is queued. */
  #sourceDone = false;
  #firstEventId: string | undefined;

  /**
   * `onEnd` runs once: `delivered` when the client's connection took the whole stream, false when the client
   * cancelled it or it was cut.
   */
  constructor(
    source: ReadableStream<Uint8Array>,
    private readonly onEnd: (body: MeteredBody, delivered: boolean) => void,
    private readonly limits = BODY_LIMITS,
  ) {
    this.#reader = source.getReader();
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
        void this.#pump();
      },
      // Called when the client has taken a chunk and there is room again.
      pull: () => {
        this.#wake();
        if (this.#sourceDone) this.#closeWhenTaken();
      },
      cancel: (reason) => {
        this.#end();
        return this.#reader.cancel(reason);
      },
    }, { highWaterMark: limits.soft });
  }

  get writable(): boolean {
    return !this.#ended && (this.#controller.desiredSize ?? 0) > 0;
  }

  /** Whether the body has ended (read to its end, cancelled, or cut). */
  get ended(): boolean {
    return this.#ended;
  }

  /** The `id` of the stream's first SSE event (the SDK's priming event names the stream), if it had one. */
  get firstEventId(): string | undefined {
    return this.#firstEventId;
  }

  drained(): Promise<void> {
    if (this.#ended || this.writable) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /**
   * One keep-alive tick: cuts the stream when a chunk queued before the previous tick is still unread, else
   * sends a comment when nothing was queued since then. Returns false once the body has ended.
   */
  keepAlive(): boolean {
    if (this.#ended) return false;
    const taken = this.#queued - this.#unread();
    if (taken < this.#queuedAtLastCall) {
      this.#cut("the client has not read this stream for a whole keep-alive interval");
      return false;
    }
    if (this.#queued === this.#queuedAtLastCall) this.#enqueue(KEEP_ALIVE);
    this.#queuedAtLastCall = this.#queued;
    return true;
  }

  /** Chunks queued and not yet taken by the client (each chunk counts one toward the high-water mark). */
  #unread(): number {
    return this.limits.soft - (this.#controller.desiredSize ?? this.limits.soft);
  }

  #enqueue(chunk: Uint8Array): void {
    if (this.#queued === 0) this.#firstEventId = eventId(chunk);
    this.#controller.enqueue(chunk);
    this.#queued++;
  }

  /** Closes the body, delivered, once the client has taken every queued chunk. */
  #closeWhenTaken(): void {
    if (this.#ended || this.#unread() > 0) return;
    this.#controller.close();
    this.#end(true);
  }

  async #pump(): Promise<void> {
    try {
      while (!this.#ended) {
        const { done, value } = await this.#reader.read();
        if (done) {
          this.#sourceDone = true;
          return this.#closeWhenTaken();
        }
        if (this.#ended) break;
        if (this.#unread() >= this.limits.hard) {
          this.#cut("the client stopped reading this stream");
          break;
        }
        this.#enqueue(value);
      }
    } catch (error) {
      try {
        this.#controller.error(error);
      } catch {
        // Already closed or cancelled.
      }
    }
    this.#end();
  }

  /** Ends the stream with an error (the client's connection is closed) and stops the SDK's stream. */
  #cut(reason: string): void {
    try {
      this.#controller.error(new Error(reason));
    } catch {
      // Already closed.
    }
    this.#end();
    this.#reader.cancel("not read").catch(() => {});
  }

  #wake(): void {
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  #end(delivered = false): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#wake();
    this.onEnd(this, delivered);
  }
}

/** The `id:` field of the SSE event at the start of `chunk`, if it has one. */
function eventId(chunk: Uint8Array): string | undefined {
  const head = new TextDecoder().decode(chunk.subarray(0, 256));
  return /^id: ?([^\r\n]+)$/m.exec(head.split("\n\n")[0])?.[1];
}
