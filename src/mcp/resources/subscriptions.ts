/**
 * One session's resource subscriptions and the notifications they cause. Engine changes only mark URIs as
 * pending (an insertion-ordered set, so a URI changed five times before it is sent goes out once, in the
 * order of its first unsent change); a single loop per session sends them, to the standalone GET stream
 * while the client reads it, else on a tool call still in progress, else keeps them until one of those
 * opens. Nothing here grows with the number of changes: pending holds at most the subscribed URIs plus
 * `list_changed`, and the tasks fingerprints one per subscribed tasks URI.
 *
 * @module
 */

import type { ChangeListener, EngineChange } from "../../engine/change_feed.ts";
import type { CommandOutputSource } from "../../engine/command_output.ts";
import type { ServerNotification } from "../sdk.ts";
import { commandOutputUri, formatResourceUri, type ResourceRef, RUNS_URI, runTasksUri } from "./uris.ts";
import { tasksFingerprint } from "../../engine/run_tasks.ts";

/** How many resources one session may subscribe to. */
export const MAX_SUBSCRIPTIONS = 256;

/** The client's standalone GET stream, as the HTTP layer meters it. */
export interface StreamMeter {
  /** False while the client has left more than a few events unread. */
  readonly writable: boolean;
  /** Resolves when the client reads again or the stream ends. */
  drained(): Promise<void>;
}

/** What the HTTP layer tells a session about its standalone GET stream. */
export interface StandaloneListener {
  /** The stream opened; `missed` when the client resumed from an event the log no longer holds. */
  opened(stream: StreamMeter, missed: boolean): void;
  /** The stream ended (the client went away, or the stream was cut for not being read). */
  closed(stream: StreamMeter): void;
}

/** Sends one notification on some stream; rejects when that stream is gone. */
export type Send = (notification: ServerNotification) => Promise<void>;

/** Where engine changes come from (the engine's change feed). */
export interface ChangeSource {
  onChange(listener: ChangeListener): () => void;
}

/** Where the growth of running commands' output is told (the service's command runner). */
export type OutputSource = Pick<CommandOutputSource, "onOutput">;

const LIST_CHANGED = "list_changed";

/** The subscriptions of one session. */
export class Subscriptions implements StandaloneListener {
  /** Subscribed canonical URIs. */
  readonly #uris = new Set<string>();
  readonly #pending = new Set<string>();
  /** The tasks last seen of each subscribed `weft://runs/{runId}/tasks`, so a step that leaves them is silent. */
  readonly #tasksSeen = new Map<string, string>();
  /** In-flight tool calls' streams, newest last: the outlet when no GET stream is open. */
  readonly #calls: Send[] = [];
  #standalone: StreamMeter | undefined;
  #listed = false;
  #unlisten: (() => void) | undefined;
  #unlistenOutput: (() => void) | undefined;
  #sending = false;
  #closed = false;

  /**
   * `standalone` sends without a related request, which the transport routes to the GET stream; `output`
   * tells of running commands' output (none: no command resource is ever notified).
   */
  constructor(
    private readonly changes: ChangeSource,
    private readonly standalone: Send,
    private readonly output?: OutputSource,
  ) {}

  /** How many resources this session subscribes to. */
  get size(): number {
    return this.#uris.size;
  }

  /**
   * Subscribes to `ref` (idempotent); beyond {@linkcode MAX_SUBSCRIPTIONS} it returns false. `seen` is what a
   * tasks resource reads now (its fingerprint), so the first change that leaves it tells nothing either.
   */
  subscribe(ref: ResourceRef, seen?: string): boolean {
    const uri = formatResourceUri(ref);
    if (!this.#uris.has(uri) && this.#uris.size >= MAX_SUBSCRIPTIONS) return false;
    this.#uris.add(uri);
    if (seen !== undefined && ref.kind === "tasks") this.#tasksSeen.set(uri, seen);
    this.#listen();
    return true;
  }

  /** Ends the subscription to `ref`, and drops its pending notification; unknown ones are ignored. */
  unsubscribe(ref: ResourceRef): void {
    const uri = formatResourceUri(ref);
    this.#uris.delete(uri);
    this.#pending.delete(uri);
    this.#tasksSeen.delete(uri);
    if (!this.#listed && this.#uris.size === 0) this.#stopListening();
  }

  /** The client listed resources: from now on it is told when the list changes. */
  listed(): void {
    this.#listed = true;
    this.#listen();
  }

  /** Makes the stream of a tool call in progress an outlet until the returned function is called. */
  whileCalling(send: Send): () => void {
    this.#calls.push(send);
    this.#kick();
    return () => {
      const index = this.#calls.lastIndexOf(send);
      if (index >= 0) this.#calls.splice(index, 1);
    };
  }

  opened(stream: StreamMeter, missed: boolean): void {
    this.#standalone = stream;
    // Past the event window the client cannot know what changed: every subscribed resource is re-read.
    if (missed) this.#markAll();
    this.#kick();
  }

  closed(stream: StreamMeter): void {
    if (this.#standalone === stream) this.#standalone = undefined;
  }

  /** Ends everything with the session: no listener, nothing pending, nothing sent any more. */
  close(): void {
    this.#closed = true;
    this.#stopListening();
    this.#uris.clear();
    this.#pending.clear();
    this.#tasksSeen.clear();
    this.#calls.length = 0;
    this.#standalone = undefined;
  }

  #listen(): void {
    if (this.#closed || this.#unlisten) return;
    this.#unlisten = this.changes.onChange(this.#onChange);
    this.#unlistenOutput = this.output?.onOutput(this.#onOutput);
  }

  #stopListening(): void {
    this.#unlisten?.();
    this.#unlisten = undefined;
    this.#unlistenOutput?.();
    this.#unlistenOutput = undefined;
  }

  readonly #onOutput = (runId: string) => {
    const before = this.#pending.size;
    this.#mark(commandOutputUri(runId));
    if (this.#pending.size !== before) this.#kick();
  };

  readonly #onChange: ChangeListener = (change: EngineChange) => {
    const before = this.#pending.size;
    if (change.kind === "run") {
      const run = { kind: "run", runId: change.run.runId } as const;
      this.#mark(formatResourceUri({ ...run, timeline: false }));
      this.#mark(formatResourceUri({ ...run, timeline: true }));
      this.#mark(RUNS_URI);
      this.#markTasks(runTasksUri(change.run.runId), tasksFingerprint(change.run));
    } else {
      this.#mark(formatResourceUri(change));
    }
    if (change.created && this.#listed) this.#pending.add(LIST_CHANGED);
    if (this.#pending.size !== before) this.#kick();
  };

  #mark(uri: string): void {
    if (this.#uris.has(uri)) this.#pending.add(uri);
  }

  /** Marks a subscribed tasks URI only when what it reads differs from what was last seen. */
  #markTasks(uri: string, fingerprint: string): void {
    if (!this.#uris.has(uri) || this.#tasksSeen.get(uri) === fingerprint) return;
    this.#tasksSeen.set(uri, fingerprint);
    this.#pending.add(uri);
  }

  #markAll(): void {
    for (const uri of this.#uris) this.#pending.add(uri);
    if (this.#listed) this.#pending.add(LIST_CHANGED);
  }

  /** Starts the send loop unless it runs; it ends when nothing is pending or no outlet is open. */
  #kick(): void {
    if (this.#sending || this.#closed || this.#pending.size === 0) return;
    this.#sending = true;
    this.#sendPending().finally(() => {
      this.#sending = false;
      // A stream may have opened while the loop was ending.
      if (this.#pending.size && this.#outletNow()) this.#kick();
    });
  }

  async #sendPending(): Promise<void> {
    while (this.#pending.size && !this.#closed) {
      const stream = this.#standalone;
      if (stream && !stream.writable) {
        // The client reads slowly: changes meanwhile coalesce in `pending` instead of queuing up.
        await stream.drained();
        continue;
      }
      const send = this.#outletNow();
      if (!send) return;
      const key: string = this.#pending.values().next().value!;
      this.#pending.delete(key);
      try {
        await send(notificationFor(key));
      } catch {
        // That stream is gone; the next round picks another outlet or keeps the key for one.
        this.#pending.add(key);
        if (send === this.standalone) return;
        const index = this.#calls.indexOf(send);
        if (index >= 0) this.#calls.splice(index, 1);
      }
    }
  }

  #outletNow(): Send | undefined {
    if (this.#standalone) return this.standalone;
    return this.#calls.at(-1);
  }
}

function notificationFor(key: string): ServerNotification {
  if (key === LIST_CHANGED) return { method: "notifications/resources/list_changed" };
  return { method: "notifications/resources/updated", params: { uri: key } };
}
