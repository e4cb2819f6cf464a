/**
 * Waiting for a resource to change over its MCP subscription, so a terminal that follows a Run waits on the
 * service's notification instead of asking again and again. `WeftClient.watch` opens one.
 *
 * @module
 */

/** A subscription to one resource of an open session, and a way to wait for its next change. */
export class ResourceWatch {
  #pending = false;
  #wake: (() => void) | undefined;

  /** `unsubscribe` ends the subscription when this was its last watch. */
  constructor(readonly uri: string, private readonly unsubscribe: () => Promise<void>) {}

  /** Resolves true at the next change (or at once if one came since the last call), false after `ms`. */
  changed(ms: number): Promise<boolean> {
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = undefined;
        resolve(false);
      }, ms);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve(true);
      };
    });
  }

  /** The resource changed (or may have, unannounced): the next wait ends at once. */
  notify(): void {
    if (this.#wake) this.#wake();
    else this.#pending = true;
  }

  /** Ends the subscription; the session itself stays open. */
  async close(): Promise<void> {
    await this.unsubscribe();
  }
}
