/**
 * The page's one MCP session with `/internal/mcp/studio` (`mcp_session.ts`): tool calls that
 * return their structured result or throw a {@linkcode StudioError}, resource subscriptions shared by every
 * view, a connection that heals itself, and signing out. The browser sends the HttpOnly session cookie and
 * its own `Origin`; the page adds its tab key (`tab_key.ts`), without which the cookie counts for nothing.
 *
 * When the session's notification stream ends (the service stopped or restarted, or cut a stream that fell
 * behind), or a request finds the session lost, the session is dropped and a new one opened, waiting between
 * tries; once it is up, every subscription is made again and every watcher reloads, since changes may have
 * been missed meanwhile. What counts as lost and how long to wait are every client's rule
 * (`src/client/reconnect.ts`, bundled with the page).
 *
 * @module
 */

import { HttpStatusError } from "../../client/http_session.ts";
import { retryDelayMs, sessionLost } from "../../client/reconnect.ts";
import { AnswerLostError, McpSession } from "./mcp_session.ts";
import { TAB_KEY_HEADER, tabKey } from "./tab_key.ts";
import type { ErrorPayload } from "./types.ts";

/** What the connection indicator says. */
export type LinkState = "Live" | "Reconnecting…" | "Offline";

/** The endpoint whose source is `studio`. */
export const STUDIO_ENDPOINT = "/internal/mcp/studio";
/** Where the page ends every Studio session of the project. */
const SIGN_OUT_PATH = "/studio/sign-out";

/** How long reconnecting is shown before the indicator says Offline (attempts go on). */
const RECONNECTING_MS = 15_000;

/** A tool's business error, or the connection's own trouble (`code` "OFFLINE", "SESSION_ENDED", "PROTOCOL"). */
export class StudioError extends Error {
  /** The error code of the catalog, or one of the connection's own. */
  readonly code: string;
  constructor(payload: { code: string; message: string }) {
    super(payload.message);
    this.code = payload.code;
  }
}

type Watcher = () => void;

/** The tools the page calls that change nothing: the same read asked twice at once can be one request. */
const READS = new Set(["list_runs", "get_run", "get_artifact", "get_record", "list_workflows", "status"]);

/** The page's connection to the service. */
export class Connection {
  #state: LinkState = "Reconnecting…";
  #ended = false;
  #unreachable = false;
  #client: McpSession | null = null;
  #connecting: Promise<void> | null = null;
  #waiters: (() => void)[] = [];
  #stateListeners = new Set<(state: LinkState) => void>();
  #watchers = new Map<string, Set<Watcher>>();
  /** A session was open before: a new one follows a loss, not the page's start. */
  #connectedBefore = false;
  /** The session being opened, not yet the page's: leaving gives it back too. */
  #opening: McpSession | null = null;
  /** The page has gone away (pagehide) and holds no session until it shows again. */
  #away = false;
  /** Reads on their way since the last change heard and the page's last write, by tool and arguments. */
  #readsOnTheirWay = new Map<string, Promise<unknown>>();

  /** The indicator's text now. */
  get state(): LinkState {
    return this.#state;
  }

  /**
   * Ends every Studio session of the project, this one included (every browser, every tab); resolves once the
   * service has, and the page then shows the session as ended.
   */
  async signOut(): Promise<void> {
    let response: Response;
    try {
      response = await fetch(SIGN_OUT_PATH, { method: "POST", headers: { [TAB_KEY_HEADER]: tabKey() } });
    } catch {
      throw new StudioError({ code: "OFFLINE", message: "The service could not be reached; try again." });
    }
    await response.body?.cancel();
    // 401: this session had ended already, which is what was asked for.
    if (!response.ok && response.status !== 401) {
      throw new StudioError({ code: "PROTOCOL", message: `Signing out failed (HTTP ${response.status}).` });
    }
    const client = this.#client;
    this.#client = null;
    this.#end();
    client?.close();
  }

  /** Whether the last attempt to open a session found no service listening (it was stopped, say). */
  get unreachable(): boolean {
    return this.#unreachable;
  }

  /** Whether the service refused the session cookie (only `weft studio` can open a new one). */
  get ended(): boolean {
    return this.#ended;
  }

  /** Calls `listener` on every change of the indicator or of {@linkcode unreachable}; returns the way to stop. */
  onState(listener: (state: LinkState) => void): () => void {
    this.#stateListeners.add(listener);
    return () => this.#stateListeners.delete(listener);
  }

  /** Opens the first session (and keeps one open from then on, while the page shows). */
  start(): void {
    this.#reconnect();
    // A page that goes away, into the back-forward cache or not, runs nothing until it comes back: it could
    // not give a session back, and the service would hold it for its idle hour.
    globalThis.addEventListener("pagehide", () => this.#leave());
    // Shown again from the back-forward cache: it opens a new session.
    globalThis.addEventListener("pageshow", (event) => {
      if ((event as PageTransitionEvent).persisted) this.#comeBack();
    });
  }

  /**
   * The page goes away: its session's place on the service is freed at once instead of after its idle hour,
   * and so is a session still opening (the page may be leaving just as it reconnects, say after its stream was
   * cut); the session's stream, which ends with it, must not make the page open another.
   */
  #leave(): void {
    this.#away = true;
    for (const client of [this.#client, this.#opening]) if (client) this.#giveBack(client);
    this.#client = null;
    this.#opening = null;
  }

  #comeBack(): void {
    if (!this.#away) return;
    this.#away = false;
    this.#reconnect();
  }

  /** Ends `client`'s session on the service, then closes it (closing first would abort the DELETE). */
  #giveBack(client: McpSession): void {
    client.terminate().catch(() => {}).finally(() => client.close());
  }

  /**
   * Calls a tool and returns its structured result; business errors and lost connections throw. A read asked
   * while the same read is on its way shares its answer (the header's count and the home view's list both
   * reload on one change), unless a change was heard or the page wrote since that read went out: then it
   * might not show the change, and a read of its own goes.
   */
  call<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
    if (!READS.has(name)) {
      this.#readsOnTheirWay.clear();
      return this.#call<T>(name, args);
    }
    const key = `${name} ${JSON.stringify(args, Object.keys(args).sort())}`;
    const sharing = this.#readsOnTheirWay.get(key);
    if (sharing) return sharing as Promise<T>;
    const reading = this.#call<T>(name, args);
    this.#readsOnTheirWay.set(key, reading);
    const done = () => {
      if (this.#readsOnTheirWay.get(key) === reading) this.#readsOnTheirWay.delete(key);
    };
    reading.then(done, done);
    return reading;
  }

  async #call<T>(name: string, args: Record<string, unknown>): Promise<T> {
    const client = await this.#ready();
    let result: {
      content?: { type: string; text?: string }[];
      structuredContent?: unknown;
      isError?: boolean;
    };
    try {
      result = await client.request("tools/call", { name, arguments: args }) as typeof result;
    } catch (error) {
      throw this.#failure(client, error);
    }
    if (result.isError) {
      const text = result.content?.[0]?.text ?? "";
      let payload: ErrorPayload | undefined;
      try {
        payload = (JSON.parse(text) as { error?: ErrorPayload }).error;
      } catch {
        // Not the service's payload: shown as it came.
      }
      throw new StudioError(payload ?? { code: "INTERNAL", message: text || `${name} failed` });
    }
    return result.structuredContent as T;
  }

  /** Resolves once a session is up with every watched resource subscribed; rejects when none will be. */
  async live(): Promise<void> {
    await this.#ready();
  }

  /** Reads the resource `uri` and parses its JSON; a missing resource and lost connections throw. */
  async read<T>(uri: string): Promise<T> {
    const client = await this.#ready();
    let result: { contents?: { text?: string }[] };
    try {
      result = await client.request("resources/read", { uri }) as typeof result;
    } catch (error) {
      throw this.#failure(client, error);
    }
    return JSON.parse(result.contents?.[0]?.text ?? "null") as T;
  }

  /**
   * Calls `onChange` whenever the resource `uri` changes, and after every reconnection (not after the first
   * connection, which every load waits for); the subscription is shared by every watcher of the same URI.
   * Returns the way to stop watching.
   */
  watch(uri: string, onChange: Watcher): () => void {
    let watchers = this.#watchers.get(uri);
    if (!watchers) {
      watchers = new Set();
      this.#watchers.set(uri, watchers);
      this.#client?.request("resources/subscribe", { uri }).catch(() => {});
    }
    watchers.add(onChange);
    return () => {
      watchers.delete(onChange);
      if (watchers.size > 0 || this.#watchers.get(uri) !== watchers) return;
      this.#watchers.delete(uri);
      this.#client?.request("resources/unsubscribe", { uri }).catch(() => {});
    };
  }

  #setState(state: LinkState, unreachable = false): void {
    if (state === this.#state && unreachable === this.#unreachable) return;
    this.#state = state;
    this.#unreachable = unreachable;
    for (const listener of this.#stateListeners) listener(state);
  }

  /** The session's client, once one is open; rejects with SESSION_ENDED when none will be. */
  #ready(): Promise<McpSession> {
    if (this.#client) return Promise.resolve(this.#client);
    return new Promise((resolve, reject) => {
      const settle = () =>
        this.#client
          ? resolve(this.#client)
          : reject(new StudioError({ code: "SESSION_ENDED", message: "This Studio session has ended." }));
      if (this.#ended) settle();
      else this.#waiters.push(settle);
    });
  }

  /** What a failed request means: a lost session starts a reconnection; the caller gets a StudioError. */
  #failure(client: McpSession, error: unknown): StudioError {
    if (error instanceof StudioError) return error;
    if (sessionLost(error) || error instanceof AnswerLostError) {
      this.#lost(client);
      return new StudioError({
        code: "OFFLINE",
        message: "The service could not be reached; Studio reconnects by itself. Try again in a moment.",
      });
    }
    return new StudioError({
      code: "PROTOCOL",
      message: error instanceof Error ? error.message : String(error),
    });
  }

  /** Drops `client` (when it is the current one) and opens a new session. */
  #lost(client: McpSession): void {
    if (this.#client !== client) return;
    this.#client = null;
    // A session that still exists (a stream cut for falling behind) is closed; a restarted service has none.
    this.#giveBack(client);
    this.#reconnect();
  }

  #reconnect(): void {
    if (this.#connecting || this.#away) return;
    this.#connecting = this.#connectLoop().finally(() => this.#connecting = null);
  }

  async #connectLoop(): Promise<void> {
    const started = Date.now();
    for (let attempt = 0; !this.#away; attempt++) {
      this.#setState(Date.now() - started > RECONNECTING_MS ? "Offline" : "Reconnecting…", this.#unreachable);
      const client = this.#open();
      this.#opening = client;
      try {
        await client.initialize();
        await this.#subscribeAll(client);
        // The page went away meanwhile and gave this session back; if it has come back since, it opens another.
        if (this.#opening !== client) continue;
        // Broken before it was the page's: #lost could not drop it, and it may not hear changes.
        if (client.broken) throw new Error("the session's stream broke as it opened");
        this.#opening = null;
        this.#client = client;
        this.#readsOnTheirWay.clear();
        this.#setState("Live");
        for (const waiter of this.#waiters.splice(0)) waiter();
        // Changes may have gone unheard while a session was lost; before the first, every load still waits
        // for this one (reloading then read each list twice, 180 KB for the waiting Runs alone).
        if (this.#connectedBefore) {
          for (const watchers of [...this.#watchers.values()]) for (const watcher of [...watchers]) watcher();
        }
        this.#connectedBefore = true;
        return;
      } catch (error) {
        // Given back as the page went away: closing it here could abort its DELETE.
        if (this.#opening !== client) continue;
        this.#opening = null;
        // Open on the service if it failed after `initialize` was answered: ended there, not left to idle.
        this.#giveBack(client);
        if (error instanceof HttpStatusError && error.status === 401) return this.#end();
        // A refused connection, not an answer: nothing listens on the service's port.
        this.#setState(this.#state, error instanceof TypeError);
      }
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt + 1)));
    }
  }

  /**
   * Subscribes `client` to every watched resource, including those watched while the subscriptions were on
   * their way: until the client is set, `watch` cannot subscribe one itself, and it would never hear of it.
   */
  async #subscribeAll(client: McpSession): Promise<void> {
    const subscribed = new Set<string>();
    for (;;) {
      const fresh = [...this.#watchers.keys()].filter((uri) => !subscribed.has(uri));
      if (fresh.length === 0) return;
      await Promise.all(fresh.map((uri) => client.request("resources/subscribe", { uri })));
      for (const uri of fresh) subscribed.add(uri);
    }
  }

  /** The session has ended for good: every waiter hears so. */
  #end(): void {
    this.#ended = true;
    this.#setState("Offline");
    for (const waiter of this.#waiters.splice(0)) waiter();
  }

  /** A new session, not opened yet, whose notifications reach the watchers. */
  #open(): McpSession {
    const client = McpSession.create(new URL(STUDIO_ENDPOINT, location.origin), {
      [TAB_KEY_HEADER]: tabKey(),
    });
    client.onNotification = (method, params) => {
      if (method !== "notifications/resources/updated") return;
      const uri = (params as { uri?: string } | undefined)?.uri;
      this.#readsOnTheirWay.clear();
      for (const watcher of [...(uri ? this.#watchers.get(uri) ?? [] : [])]) watcher();
    };
    // A stream ended or broke (the service stopped or restarted, or cut a stream that fell behind): this
    // session no longer hears changes, and is not resumed; a new one follows.
    client.onBroken = () => this.#lost(client);
    return client;
  }
}

/** The page's connection, shared by every view. */
export const connection = new Connection();
