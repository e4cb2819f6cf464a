/**
 * The one MCP session a client keeps with this project's service, whoever the client is: the bridge an IDE
 * launches (`weft mcp`) forwards its IDE's messages through it, and every command calls its tools through it
 * (`weft_client.ts`). It reaches the service (`reach.ts`: found, proven to be the project's own, started when
 * allowed), and it outlives a restart of the service: a message that finds the session lost (the rule is
 * `reconnect.ts`'s) joins the service again with the same `initialize`, subscribes again to what was
 * subscribed, and is sent once more; when the notification stream breaks, the session is checked and joined
 * again the same way. Whoever subscribed hears which subscriptions were made again, since their changes went
 * unannounced meanwhile.
 *
 * A session may be *persistent* (the bridge: it lives as long as the IDE does): then it starts the service
 * whenever a message needs it, and after a broken stream it waits for the service to run again (it does not
 * start one a person stopped). A command's session starts the service at most once, when it opens, and waits
 * for it to run again only as long as a restart takes: a command ends, and says why, rather than wait on.
 *
 * No message is validated here, and no MCP SDK is loaded: `weft mcp` starts with every IDE.
 *
 * @module
 */

import { WeftError } from "../errors.ts";
import type { ConnectionInfo } from "../weft_dir/connection.ts";
import { HttpSession, ServiceGoneError } from "./http_session.ts";
import {
  isAnswer,
  isRequest,
  isResult,
  type JSONRPCAnswer,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from "./jsonrpc.ts";
import { reachService } from "./reach.ts";
import { sessionLost } from "./reconnect.ts";
import { type Endpoint, endpointToken } from "./endpoints.ts";
import { serviceCrashed, serviceRunsAgain } from "./service_return.ts";
import { verifiedConnection } from "./verified_connection.ts";

/**
 * How long a command's session waits for the service to run again after its stream broke: a restart's gap
 * (`weft stop && weft start`, say), not a stop, which the command then reports.
 */
const COMMAND_PATIENCE_MS = 15_000;

/** How a {@linkcode ServiceSession} reaches the service and what it does when the service goes away. */
export interface SessionOptions {
  /** The endpoint the session opens; it is sent only its own token class's token. */
  endpoint: Endpoint;
  /** The bridge's kind of session, which starts the service when a message needs it and waits for it. */
  persistent?: boolean;
  /** For a command's session: start the service when none runs as the session opens. */
  start?: boolean;
  /** Where to say that the service is being started. */
  progress?: (line: string) => void;
  /** Called just before the service is started, with whether `.weft/` was found to be weft's own. */
  starting?: (trusted: boolean) => void;
}

/** The service could not be reached (nor started, where that was allowed); `cause` says why. */
export class ServiceUnreachable extends WeftError {
  constructor(override readonly cause: unknown) {
    super("SERVICE_OFFLINE", (cause as Error)?.message ?? String(cause), { cause });
    this.name = "ServiceUnreachable";
  }
}

/** The service answered a request of the session's own with a JSON-RPC error (`rpcCode`, e.g. -32602). */
export class RpcError extends WeftError {
  constructor(readonly rpcCode: number, message: string, readonly data?: unknown) {
    super("FAILURE", message);
    this.name = "RpcError";
  }
}

/** What a join (or a join again) of the service brought. */
export interface Joined {
  /** The service's answer to the `initialize`. */
  answer: JSONRPCAnswer;
  /** The subscriptions made again: whatever changed while the session was away went unannounced. */
  resubscribed: string[];
}

/** One MCP session with the project's service, joined again whenever the service restarted. */
export class ServiceSession {
  /** Every message of the service but the answers to the session's own requests. */
  onmessage?: (message: JSONRPCMessage) => void;
  /** The answer to a request sent with {@linkcode send} can no longer come. */
  onlost?: (id: string | number, error: Error) => void;
  /** What went wrong on the side, for a log. */
  onwarning?: (text: string) => void;
  /** The session joined the service (again); awaited before anything else is sent. */
  onjoined?: (joined: Joined) => Promise<void> | void;
  /** The notification stream broke and the session did not join again: subscribers read again. */
  onbroken?: (subscribed: string[]) => void;

  #upstream: Promise<HttpSession> | undefined;
  /** The metadata the service was last reached with. */
  #connection: ConnectionInfo | undefined;
  /** Sends and recoveries go out one at a time, so that a join is complete before the next message. */
  #queue: Promise<unknown> = Promise.resolve();
  /** The `initialize` the client joined with, to join a restarted service as the same client. */
  #initialize: JSONRPCRequest | undefined;
  #protocolVersion: string | undefined;
  /** The session's own requests awaiting their answer. */
  readonly #pending = new Map<string, { settle: (answer: JSONRPCAnswer | Error) => void }>();
  #nextId = 1;
  /** What is subscribed (confirmed by the service), to subscribe again after a join. */
  readonly #subscribed = new Set<string>();
  /** Subscribe requests awaiting their answer: request id → uri. */
  readonly #subscribing = new Map<string | number, string>();
  #connected = false;
  #recovering = false;
  #closed = false;
  /** Aborted by close(): a wait for the service to run again ends with it. */
  readonly #closing = new AbortController();

  constructor(readonly projectDir: string, readonly options: SessionOptions) {}

  /**
   * Reaches the service, starting it where allowed; resolves once found. Nothing is sent: the first message
   * (or {@linkcode join}) opens the MCP session. Failures throw {@linkcode ServiceUnreachable}.
   */
  async connect(): Promise<ConnectionInfo> {
    await this.#connect();
    return this.#connection!;
  }

  /**
   * Opens the MCP session with `initialize` (sent under an id of the session's own), then
   * `notifications/initialized`, and subscribes again to what was subscribed. Resolves with the service's
   * answer; a JSON-RPC error is thrown as {@linkcode RpcError}.
   */
  join(initialize: JSONRPCRequest): Promise<Joined> {
    return this.#serially(() => this.#join(initialize));
  }

  /**
   * Forwards one message of the client's own (an IDE's): its answer, and whatever the service sends meanwhile,
   * arrive through {@linkcode onmessage}. An `initialize` is remembered as the way to join again.
   */
  send(message: JSONRPCMessage): Promise<void> {
    return this.#serially(() => {
      if (isRequest(message)) this.#noteSubscription(message);
      return this.#forward(message);
    });
  }

  /**
   * Sends a request of the session's own and resolves with its result; an error answer throws
   * {@linkcode RpcError}. Requests go out in order; their answers are awaited side by side, each at most
   * `options.timeoutMs` when given.
   */
  async request(
    method: string,
    params?: Record<string, unknown>,
    options: { purpose?: string; timeoutMs?: number } = {},
  ): Promise<unknown> {
    const request = { method, ...(params ? { params } : {}) };
    const { answer } = await this.#serially(() => this.#post(request, options.purpose ?? "request", true));
    return resultOf(await within(answer, method, options.timeoutMs), method);
  }

  /** Subscribes to `uri`; it is subscribed again after every join. */
  async subscribe(uri: string): Promise<void> {
    await this.request("resources/subscribe", { uri }, { purpose: "subscribe" });
    this.#subscribed.add(uri);
  }

  /** Ends the subscription to `uri`. */
  async unsubscribe(uri: string): Promise<void> {
    this.#subscribed.delete(uri);
    await this.request("resources/unsubscribe", { uri }, { purpose: "unsubscribe" });
  }

  /** Ends the MCP session on the service (the next message opens a new one) and keeps what is subscribed. */
  disconnect(): Promise<void> {
    return this.#serially(() => this.#disconnect());
  }

  /** Ends the session for good: the service's session is ended (DELETE) and nothing more is sent. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort();
    // Not after the queue: what waits there may wait on an answer that only this ends.
    await this.#disconnect();
    for (const [id, own] of this.#pending) {
      this.#pending.delete(id);
      own.settle(new Error("the session with the service was closed before the answer came"));
    }
  }

  /** Runs `task` once the tasks before it are done, whether they succeeded or not. */
  #serially<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#queue.catch(() => {}).then(task);
    this.#queue = result.catch(() => {});
    return result;
  }

  /**
   * Sends one message. When the service has restarted (the session is gone) or stopped meanwhile, joins it
   * again (starting it if the session may) and sends the message once more, so the client carries on.
   */
  async #forward(message: JSONRPCMessage): Promise<void> {
    if (isRequest(message) && message.method === "initialize") this.#initialize = message;
    const upstream = await this.#connect();
    const isInitialize = isRequest(message) && message.id === this.#initialize?.id;
    if (this.#initialize && !isInitialize && upstream.sessionId === undefined) {
      // The client joined, but this session never did: a join failed (the service refused it, or went away
      // again). The service would refuse everything without a session, so join again first.
      await this.#disconnect();
      await this.#rejoin();
      return await (await this.#connect()).send(message);
    }
    try {
      await upstream.send(message);
    } catch (error) {
      if (!this.#initialize || isInitialize || !isLost(error)) throw error;
      this.onwarning?.("the service restarted or stopped; joining it again");
      await this.#disconnect();
      await this.#rejoin();
      await (await this.#connect()).send(message);
    }
  }

  /** Sends a request of the session's own, waits for its answer and returns it. */
  async #ask(request: OwnRequest, purpose: string): Promise<JSONRPCAnswer> {
    return await (await this.#post(request, purpose, false)).answer;
  }

  /**
   * Sends a request under an id of the session's own; resolves once it is sent, with its answer to come.
   * `rejoin` lets a lost session be joined again (not while joining).
   */
  async #post(
    request: OwnRequest,
    purpose: string,
    rejoin: boolean,
  ): Promise<{ answer: Promise<JSONRPCAnswer> }> {
    const id = `weft-${purpose}-${this.#nextId++}`;
    const answer = new Promise<JSONRPCAnswer>((resolve, reject) => {
      this.#pending.set(id, {
        settle: (value) => value instanceof Error ? reject(value) : resolve(value),
      });
    });
    // Its failure is the caller's, whenever the caller comes to await it.
    answer.catch(() => {});
    const message = { jsonrpc: "2.0" as const, id, ...request } as JSONRPCRequest;
    try {
      if (rejoin) await this.#forward(message);
      else await (await this.#connect()).send(message);
    } catch (error) {
      this.#pending.delete(id);
      throw error;
    }
    return { answer };
  }

  async #join(initialize: JSONRPCRequest): Promise<Joined> {
    this.#initialize = initialize;
    const upstream = await this.#connect();
    if (this.#protocolVersion) upstream.setProtocolVersion(this.#protocolVersion);
    const { id: _, jsonrpc: __, ...request } = initialize;
    const answer = await this.#ask(request, "join");
    resultOf(answer, "initialize");
    this.#negotiated(answer, upstream);
    await upstream.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const resubscribed = [...this.#subscribed];
    for (const uri of resubscribed) {
      await this.#ask({ method: "resources/subscribe", params: { uri } }, "resubscribe");
    }
    const joined = { answer, resubscribed };
    await this.onjoined?.(joined);
    return joined;
  }

  /** Joins again with the client's own `initialize`. */
  #rejoin(): Promise<Joined> {
    return this.#join(this.#initialize!);
  }

  /** The version `initialize` negotiated, which every later request carries (as the SDK's client does). */
  #negotiated(answer: JSONRPCAnswer, upstream: HttpSession): void {
    const version = (answer.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    if (typeof version !== "string") return;
    upstream.setProtocolVersion(version);
    this.#protocolVersion = version;
  }

  /** Keeps track of what a forwarded request subscribes to, so a join can subscribe to it again. */
  #noteSubscription(message: JSONRPCRequest): void {
    const uri = (message.params as { uri?: unknown } | undefined)?.uri;
    if (typeof uri !== "string") return;
    if (message.method === "resources/subscribe") this.#subscribing.set(message.id, uri);
    if (message.method === "resources/unsubscribe") this.#subscribed.delete(uri);
  }

  /** A message from the service: the answer to a request of the session's own, or the client's business. */
  #received(message: JSONRPCMessage, upstream: HttpSession): void {
    if (isAnswer(message)) {
      const own = this.#pending.get(String(message.id));
      if (own) {
        this.#pending.delete(String(message.id));
        return own.settle(message);
      }
      if (message.id === this.#initialize?.id && isResult(message)) this.#negotiated(message, upstream);
      const uri = this.#subscribing.get(message.id);
      if (uri !== undefined) {
        this.#subscribing.delete(message.id);
        if (isResult(message)) this.#subscribed.add(uri);
      }
    }
    this.onmessage?.(message);
  }

  #connect(): Promise<HttpSession> {
    this.#upstream ??= this.#open().catch((error) => {
      this.#upstream = undefined;
      throw error;
    });
    return this.#upstream;
  }

  async #open(): Promise<HttpSession> {
    // A command's session starts the service only as it opens; the bridge's whenever it is needed.
    const start = this.options.persistent || (this.options.start === true && !this.#connected);
    let connection: ConnectionInfo;
    try {
      // The checks every client makes before sending a token, and no session of its own yet: the first
      // message (the IDE's initialize, forwarded next, or a command's) is what shows the service answers.
      connection = await reachService(this.projectDir, {
        start,
        progress: this.options.progress,
        starting: this.options.starting,
      });
    } catch (error) {
      throw new ServiceUnreachable(error);
    }
    this.#connected = true;
    this.#connection = connection;
    const { endpoint } = this.options;
    const upstream = new HttpSession(
      new URL(endpoint.path, connection.url),
      { authorization: `Bearer ${endpointToken(connection, endpoint)}` },
      () => this.#stillServes(connection),
    );
    upstream.onmessage = (message) => this.#received(message, upstream);
    upstream.onlost = (id, error) => {
      const own = this.#pending.get(String(id));
      if (!own) return this.onlost?.(id, error);
      this.#pending.delete(String(id));
      own.settle(error);
    };
    upstream.onerror = (error) => {
      this.onwarning?.(`service stream: ${error.message}`);
      this.#streamFailed();
    };
    return upstream;
  }

  /** Whether the instance `connection` names still holds the project's lock and listens on its port. */
  async #stillServes(connection: ConnectionInfo): Promise<boolean> {
    try {
      const now = await verifiedConnection(this.projectDir);
      return now.instanceId === connection.instanceId && now.port === connection.port;
    } catch {
      return false;
    }
  }

  /**
   * The notification stream reported an error. While something is subscribed, the session checks it is still
   * there, and if the service restarted or stopped, joins it again (a persistent session waits for it to run).
   */
  #streamFailed(): void {
    if (this.#recovering || this.#closed || !this.#subscribed.size || !this.#initialize) return;
    this.#recovering = true;
    void this.#serially(() => this.#recover())
      .catch((error) => this.onwarning?.((error as Error).message))
      .finally(() => this.#recovering = false);
  }

  async #recover(): Promise<void> {
    try {
      const upstream = await this.#connect();
      await this.#ask({ method: "ping" }, "ping");
      // The session lives: its notification stream may have given up meanwhile, so it is opened again.
      upstream.listen();
      return;
    } catch (error) {
      if (!isLost(error) && !(error instanceof ServiceUnreachable)) throw error;
    }
    await this.#disconnect();
    // A crashed service is no restart: a command lets its reader find out at once (and say how to recover).
    if (!this.options.persistent && await serviceCrashed(this.projectDir)) {
      if (!this.#closed) this.onbroken?.([...this.#subscribed]);
      return;
    }
    this.onwarning?.("the service restarted or stopped; joining it again when it runs");
    // A command waits as long as a restart takes, then lets its reader find out that the service is gone.
    const patience = this.options.persistent
      ? this.#closing.signal
      : AbortSignal.any([this.#closing.signal, AbortSignal.timeout(COMMAND_PATIENCE_MS)]);
    if (await serviceRunsAgain(this.projectDir, patience)) {
      try {
        return void await this.#rejoin();
      } catch (error) {
        if (this.options.persistent) throw error;
      }
    }
    if (!this.#closed) this.onbroken?.([...this.#subscribed]);
  }

  async #disconnect(): Promise<void> {
    const upstream = await this.#upstream?.catch(() => undefined);
    this.#upstream = undefined;
    await upstream?.terminateSession().catch(() => {});
    await upstream?.close();
  }
}

/** `answer`, or a failure once `timeoutMs` passed without it (never, without `timeoutMs`). */
async function within<T>(answer: Promise<T>, method: string, timeoutMs: number | undefined): Promise<T> {
  if (timeoutMs === undefined) return await answer;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the service did not answer ${method} within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A request of the session's own, before it has an id. */
type OwnRequest = { method: string; params?: Record<string, unknown> };

/** The result of `answer`; an error answer is thrown as {@linkcode RpcError}. */
function resultOf(answer: JSONRPCAnswer, method: string): unknown {
  if (isResult(answer)) return answer.result;
  const error = (answer as { error?: { code?: number; message?: string; data?: unknown } }).error;
  throw new RpcError(error?.code ?? -32603, error?.message ?? `${method} failed`, error?.data);
}

/**
 * Whether a send failed because the session is lost (`reconnect.ts`), or the service it was opened with no
 * longer runs.
 */
function isLost(error: unknown): boolean {
  return sessionLost(error) || error instanceof ServiceGoneError;
}
