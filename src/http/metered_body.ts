/**
 * A response body that knows whether its client keeps up. It moves the SDK's stream into a queue of its own
 * as soon as chunks arrive, so the queue's length is exactly what the client has not read yet: above the
 * soft bound the body stops being `writable` (the session then coalesces instead of sending); past the hard
 * bound the client is not reading at all and the stream is cut, to be resumed with `Last-Event-ID`, rather
 * than grow for as long as the client stays away.
 *
 * @module
 */

import type { StreamMeter } from "../mcp/resources/subscriptions.ts";

/** Unread chunks (SSE events) at which a body stops taking notifications, and at which it is cut. */
export const BODY_LIMITS = { soft: 8, hard: 256 };

/** A metered copy of a response body. */
export class MeteredBody implements StreamMeter {
  readonly body: ReadableStream<Uint8Array>;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #waiters: (() => void)[] = [];
  #ended = false;

  /** `onEnd` runs once, when the body is read to its end, cancelled by the client, or cut. */
  constructor(
    source: ReadableStream<Uint8Array>,
    private readonly onEnd: (body: MeteredBody) => void,
    private readonly limits = BODY_LIMITS,
  ) {
    const reader = source.getReader();
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
        void this.#pump(reader);
      },
      // Called when the client has taken a chunk and there is room again.
      pull: () => this.#wake(),
      cancel: (reason) => {
        this.#end();
        return reader.cancel(reason);
      },
    }, { highWaterMark: limits.soft });
  }

  get writable(): boolean {
    return !this.#ended && (this.#controller.desiredSize ?? 0) > 0;
  }

  drained(): Promise<void> {
    if (this.#ended || this.writable) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  async #pump(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    try {
      while (!this.#ended) {
        const { done, value } = await reader.read();
        if (done) {
          if (!this.#ended) this.#controller.close();
          break;
        }
        if (this.#ended) break;
        if ((this.#controller.desiredSize ?? 0) <= this.limits.soft - this.limits.hard) {
          this.#controller.error(new Error("the client stopped reading this stream"));
          await reader.cancel("not read");
          break;
        }
        this.#controller.enqueue(value);
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
