/**
 * The last bounded part of an output stream: a command may print gigabytes, and what a Run keeps of it is
 * the end (where test runners print their summary), with the count of bytes cut before it.
 *
 * @module
 */
import type { StreamTail } from "../engine/command_step.ts";

/** How much of each stream a command step keeps, in bytes, unless told otherwise. */
export const DEFAULT_TAIL_BYTES = 32 * 1024;

/** Collects a stream's chunks, holding at most about twice `limit` bytes however much arrives. */
export class OutputTail {
  #chunks: Uint8Array[] = [];
  #held = 0;
  #total = 0;

  constructor(readonly limit: number = DEFAULT_TAIL_BYTES) {}

  /** Bytes seen so far. */
  get total(): number {
    return this.#total;
  }

  /** Takes one chunk, dropping the oldest ones no longer needed for the last `limit` bytes. */
  push(chunk: Uint8Array): void {
    this.#total += chunk.length;
    this.#chunks.push(chunk);
    this.#held += chunk.length;
    while (this.#chunks.length > 1 && this.#held - this.#chunks[0].length >= this.limit) {
      this.#held -= this.#chunks.shift()!.length;
    }
  }

  /** The last `limit` bytes as text (starting at a whole character) and how many bytes came before them. */
  tail(): StreamTail {
    const all = new Uint8Array(this.#held);
    let offset = 0;
    for (const chunk of this.#chunks) {
      all.set(chunk, offset);
      offset += chunk.length;
    }
    let start = Math.max(0, all.length - this.limit);
    // A cut inside a UTF-8 sequence would leave a broken character at the front.
    while (start > 0 && start < all.length && (all[start] & 0xc0) === 0x80) start++;
    const kept = all.subarray(start);
    return { text: new TextDecoder().decode(kept), cutBytes: this.#total - kept.length };
  }
}
