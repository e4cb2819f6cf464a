/**
 * Waiting for a resource to change over its MCP subscription, so a terminal that follows a Run waits on the
 * service's notification instead of asking again and again.
 *
 * @module
 */

import type { Client } from "../mcp/sdk_client.ts";

/** A subscription to one resource of an open session, and a way to wait for its next change. */
export class ResourceWatch {
  #pending = false;
  #wake: (() => void) | undefined;

  private constructor(private readonly client: Client, readonly uri: string) {}

  /**
   * Subscribes to `uri`. A transport error (say, the service went away) counts as a change too, so the
   * caller reads again and sees what happened instead of waiting for a notification that cannot come.
   */
  static async open(client: Client, uri: string): Promise<ResourceWatch> {
    const watch = new ResourceWatch(client, uri);
    // Loaded with the client by `connect`, so this costs nothing more; a static import would load the SDK
    // for every command that merely might watch, the service offline or not.
    const { ResourceUpdatedNotificationSchema } = await import("../mcp/sdk_client.ts");
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      if (notification.params.uri === uri) watch.#notify();
    });
    const previous = client.onerror;
    client.onerror = (error) => {
      previous?.(error);
      watch.#notify();
    };
    await client.subscribeResource({ uri });
    return watch;
  }

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

  /** Ends the subscription; the session itself stays open. */
  async close(): Promise<void> {
    this.client.removeNotificationHandler("notifications/resources/updated");
    await this.client.unsubscribeResource({ uri: this.uri }).catch(() => {});
  }

  #notify(): void {
    if (this.#wake) this.#wake();
    else this.#pending = true;
  }
}
