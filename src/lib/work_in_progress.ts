/**
 * A count of work in progress, of any kind (an open session, a model turn, a command step), with the time it
 * last dropped to zero: what an idle exit asks before it ends a process.
 *
 * @module
 */

/** Work in progress and how long there has been none. */
export class WorkInProgress {
  #count = 0;
  #idleSince: number;

  /** `now` is the clock the idle time is measured on (injectable for tests). */
  constructor(private readonly now: () => number = Date.now) {
    this.#idleSince = now();
  }

  /** Units of work in progress now. */
  get count(): number {
    return this.#count;
  }

  /** Counts one unit of work until the returned function is called; calling it again does nothing. */
  begin(): () => void {
    this.#count++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.#count === 0) this.#idleSince = this.now();
    };
  }

  /** Milliseconds since the last unit of work ended; zero while any is in progress. */
  idleFor(): number {
    return this.#count ? 0 : this.now() - this.#idleSince;
  }
}
