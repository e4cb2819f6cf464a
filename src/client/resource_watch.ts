/**
 * Waiting for resources to change over their MCP subscriptions, so a terminal that follows a Run waits on the
 * service's notifications instead of asking again and again.
 *
 * @module
 */

import type { Client } from "../mcp/sdk_client.ts";

/** Subscriptions to some resources of an open session, and a way to wait for their next changes. */
export class ResourceWatch {
  readonly #changed = new Set<string>();
  #wake: (() => void) | undefined;

  private constructor(private readonly client: Client, readonly uris: readonly string[]) {}

  /**
   * Subscribes to each of `uris`. A transport error (say, the service went away) counts as a change of each,
   * so the caller reads again and sees what happened instead of waiting for a notification that cannot come.
   */
  static async open(client: Client, uris: readonly string[]): Promise<ResourceWatch> {
    const watch = new ResourceWatch(client, uris);
    // Loaded with the client by `connect`, so this costs nothing more; a static import would load the SDK
    // for every command that merely might watch, the service offline or not.
    const { ResourceUpdatedNotificationSchema } = await import("../mcp/sdk_client.ts");
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      if (uris.includes(notification.params.uri)) watch.#notify([notification.params.uri]);
    });
    const previous = client.onerror;
    client.onerror = (error) => {
      previous?.(error);
      watch.#notify(uris);
    };
    for (const uri of uris) await client.subscribeResource({ uri });
    return watch;
  }

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

  /** Ends the subscriptions; the session itself stays open. */
  async close(): Promise<void> {
    this.client.removeNotificationHandler("notifications/resources/updated");
    for (const uri of this.uris) await this.client.unsubscribeResource({ uri }).catch(() => {});
  }

  #take(): Set<string> {
    const changed = new Set(this.#changed);
    this.#changed.clear();
    return changed;
  }

  #notify(uris: readonly string[]): void {
    for (const uri of uris) this.#changed.add(uri);
    this.#wake?.();
  }
}
