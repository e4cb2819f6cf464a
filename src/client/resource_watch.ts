/**
 * Waiting for resources to change over their MCP subscriptions, so a terminal that follows a Run waits on the
 * service's notifications instead of asking again and again. `WeftClient.watch` opens one.
 *
 * @module
 */

/** Subscriptions to some resources of an open session, and a way to wait for their next changes. */
export class ResourceWatch {
  readonly #changed = new Set<string>();
  #wake: (() => void) | undefined;

  /** `unsubscribe` ends the subscriptions no other watch holds. */
  constructor(readonly uris: readonly string[], private readonly unsubscribe: () => Promise<void>) {}

  /**
   * Resolves with the URIs that changed since the last call, at once if any did, else at the next change;
   * with none after `ms`.
   */
  next(ms: number): Promise<ReadonlySet<string>> {
    if (this.#changed.size) return Promise.resolve(this.#take());
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = undefined;
        resolve(new Set());
      }, ms);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve(this.#take());
      };
    });
  }

  /** Those of `uris` this watch holds changed (or may have, unannounced): the next wait ends at once. */
  notify(uris: readonly string[]): void {
    const mine = uris.filter((uri) => this.uris.includes(uri));
    if (!mine.length) return;
    for (const uri of mine) this.#changed.add(uri);
    this.#wake?.();
  }

  /** Ends the subscriptions; the session itself stays open. */
  async close(): Promise<void> {
    await this.unsubscribe();
  }

  #take(): Set<string> {
    const changed = new Set(this.#changed);
    this.#changed.clear();
    return changed;
  }
}
