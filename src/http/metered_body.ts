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

  /** `onEnd` runs once, when the body is read to its end, cancelled by the client, or cut. */
  constructor(
    source: ReadableStream<Uint8Array>,
    private readonly onEnd: (body: MeteredBody) => void,
    private readonly limits = BODY_LIMITS,
  ) {
    this.#reader = source.getReader();
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
        void this.#pump();
      },
      // Called when the client has taken a chunk and there is room again.
      pull: () => this.#wake(),
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
    this.#controller.enqueue(chunk);
    this.#queued++;
  }

  async #pump(): Promise<void> {
    try {
      while (!this.#ended) {
        const { done, value } = await this.#reader.read();
        if (done) {
          if (!this.#ended) this.#controller.close();
          break;
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
    } finally {
      this.#end();
    }
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

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#wake();
    this.onEnd(this);
  }
}
