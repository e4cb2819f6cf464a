/**
 * The idle exit: a service started on someone's behalf ends once it has had no session, no stream and no
 * work of its own for a while. A Run waiting for a person does not count: its state is durable, and the next
 * client starts the service again.
 *
 * @module
 */

import type { WorkInProgress } from "../lib/work_in_progress.ts";

/** A watch on the service's work that resolves `idle` once there has been none for `idleMs`. */
export class IdleExit {
  /** Resolves once the watched work has been idle for the whole bound (never when the watch is stopped first). */
  readonly idle: Promise<void>;
  #resolve!: () => void;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(readonly work: WorkInProgress, readonly idleMs: number) {
    this.idle = new Promise((resolve) => this.#resolve = resolve);
  }

  /** Whether the bound has passed; resolves `idle` when it has. The timer calls this, and so may a test. */
  check(): boolean {
    if (this.work.idleFor() < this.idleMs) return false;
    this.stop();
    this.#resolve();
    return true;
  }

  /**
   * Checks on a timer that does not keep the process alive, often enough that the exit comes within a
   * quarter of the bound (at most a minute) after it passed.
   */
  start(): void {
    if (this.#timer !== undefined) return;
    const every = Math.max(250, Math.min(this.idleMs / 4, 60_000));
    this.#timer = setInterval(() => this.check(), every);
    Deno.unrefTimer(this.#timer);
  }

  /** Stops checking; `idle` then stays pending. */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
