/**
 * MCP sessions: one SDK transport and one server per session, each bound to the endpoint path that opened
 * it. A session id presented on any other path is unknown there (404), exactly like an id never issued.
 * Each session keeps a bounded event log for resumable streams, and its standalone GET stream is metered so
 * the session's notifications coalesce for a client that reads slowly.
 *
 * @module
 */

import { isInitializeRequest, type Server, WebStandardStreamableHTTPServerTransport } from "../mcp/sdk.ts";
import type { Endpoint, TokenClass } from "../mcp/endpoints.ts";
import type { StandaloneListener } from "../mcp/resources/subscriptions.ts";
import { EventLog, STANDALONE_STREAM } from "./event_log.ts";
import { MeteredBody } from "./metered_body.ts";
import type { Logger } from "../lib/logger.ts";
import type { WorkInProgress } from "../lib/work_in_progress.ts";
import { randomId } from "../lib/tokens.ts";
import { jsonRpcError } from "./middleware.ts";
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from "./session_limits.ts";

export { DEFAULT_SESSION_LIMITS, type SessionLimits } from "./session_limits.ts";

/** What the MCP layer makes of a new session: its server, and who to tell about its GET stream. */
export interface SessionServer {
  server: Server;
  standalone?: StandaloneListener;
}

interface Session {
  endpoint: Endpoint;
  transport: WebStandardStreamableHTTPServerTransport;
  server: Server;
  standalone?: StandaloneListener;
  log: EventLog;
  lastSeen: number;
  /** Responses still streaming: a person answering a form for hours keeps the session busy, not idle. */
  streaming: number;
  /** Ends the session's count in the service's work in progress. */
  ended: () => void;
}

/** What a session table is built with besides its limits. */
export interface SessionTableOptions {
  /** The clock of idle sessions (injectable for tests). */
  now?: () => number;
  /**
   * Where each open session counts as work in progress, so the service stays while any is open (its streams
   * included: they end with it).
   */
  work?: WorkInProgress;
}

/** The table of open sessions and the stage of the HTTP handler that serves them. */
export class SessionTable {
  #sessions = new Map<string, Session>();
  #opening: Record<TokenClass, number> = { external: 0, internal: 0 };
  /** Event streams still open, for the keep-alive tick. */
  #streams = new Set<MeteredBody>();
  #timers: ReturnType<typeof setInterval>[] = [];
  readonly #now: () => number;
  readonly #work: WorkInProgress | undefined;

  constructor(
    readonly limits: SessionLimits,
    private readonly createServer: (endpoint: Endpoint) => SessionServer,
    private readonly logger: Logger,
    options: SessionTableOptions = {},
  ) {
    this.#now = options.now ?? Date.now;
    this.#work = options.work;
  }

  /** Open sessions, for `status`. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Open sessions of one token class. */
  sizeOf(tokenClass: TokenClass): number {
    let count = 0;
    for (const session of this.#sessions.values()) if (session.endpoint.tokenClass === tokenClass) count++;
    return count;
  }

  /** Event streams open now (a standalone GET stream, or a request's answer still streaming). */
  get streams(): number {
    return this.#streams.size;
  }

  /**
   * Starts sweeping idle sessions, and the keep-alive tick on open event streams, on timers that do not keep
   * the process alive.
   */
  startSweeping(): void {
    if (this.#timers.length) return;
    const every = Math.max(1000, Math.min(this.limits.idleMs / 4, 60_000));
    this.#timers.push(setInterval(() => void this.sweep(), every));
    const keepAliveMs = this.limits.keepAliveMs ?? DEFAULT_SESSION_LIMITS.keepAliveMs!;
    this.#timers.push(setInterval(() => this.keepAlive(), keepAliveMs));
    for (const timer of this.#timers) Deno.unrefTimer(timer);
  }

  /**
   * One keep-alive tick on every open event stream: a quiet one gets an SSE comment, one its client stopped
   * reading is cut. A stream that ends stops keeping its session busy. Returns the streams still open.
   */
  keepAlive(): number {
    for (const stream of [...this.#streams]) stream.keepAlive();
    return this.#streams.size;
  }

  /** Closes every session idle for longer than the limit; returns how many it closed. */
  async sweep(): Promise<number> {
    const cutoff = this.#now() - this.limits.idleMs;
    const idle = [...this.#sessions.entries()].filter(([, session]) =>
      session.streaming === 0 && session.lastSeen < cutoff
    );
    for (const [id, session] of idle) {
      this.logger.log("session.expired", { path: session.endpoint.path, session: id });
      await session.transport.close();
    }
    return idle.length;
  }

  /** Serves one request that passed every check. */
  async handle(request: Request, endpoint: Endpoint, body: unknown): Promise<Response> {
    const sessionId = request.headers.get("mcp-session-id");
    if (sessionId !== null) {
      const session = this.#sessions.get(sessionId);
      if (!session || session.endpoint.path !== endpoint.path) {
        return jsonRpcError(404, -32001, "Session not found: initialize a new session on this endpoint");
      }
      // The SDK refuses a well-formed initialize here, but answers a malformed one -32603 with its schema dump.
      if (hasInitialize(body)) {
        return jsonRpcError(
          400,
          -32600,
          "Invalid Request: this session is already initialized; to start over, send initialize without an " +
            "Mcp-Session-Id",
        );
      }
      session.lastSeen = this.#now();
      const standalone = request.method === "GET" ? standaloneResumption(session, request) : undefined;
      const response = await session.transport.handleRequest(request, { parsedBody: body });
      return this.#tracked(session, response, response.ok ? standalone : undefined);
    }
    if (request.method !== "POST" || !isInitialization(body)) {
      return jsonRpcError(
        400,
        -32000,
        "Bad Request: send initialize first, then the Mcp-Session-Id it returns",
      );
    }
    const tokenClass = endpoint.tokenClass;
    if (this.sizeOf(tokenClass) + this.#opening[tokenClass] >= this.limits.maxSessions) {
      const evicted = tokenClass === "internal" && await this.#evictLeastRecent(tokenClass);
      if (!evicted) {
        return jsonRpcError(
          503,
          -32000,
          `Too many open MCP sessions on the ${tokenClass} endpoints (limit ${this.limits.maxSessions}): ` +
            "close unused sessions with DELETE or wait for idle ones to expire",
          { "retry-after": "5" },
        );
      }
    }
    return await this.#open(request, endpoint, body);
  }

  /**
   * Closes the session of `tokenClass` unused the longest, preferring one that is not streaming; when every one
   * streams, the oldest of those goes (its client reconnects), so a table full of open streams still lets
   * `weft status` and `weft stop` in. False only when the class has no session at all.
   */
  async #evictLeastRecent(tokenClass: TokenClass): Promise<boolean> {
    let oldest: [string, Session] | undefined;
    for (const entry of this.#sessions) {
      const session = entry[1];
      if (session.endpoint.tokenClass !== tokenClass) continue;
      const quieter = oldest && (session.streaming > 0) !== (oldest[1].streaming > 0)
        ? session.streaming === 0
        : !oldest || session.lastSeen < oldest[1].lastSeen;
      if (quieter) oldest = entry;
    }
    if (!oldest) return false;
    this.logger.log("session.evicted", { path: oldest[1].endpoint.path, session: oldest[0] });
    await oldest[1].transport.close();
    this.#sessions.delete(oldest[0]);
    oldest[1].ended();
    return true;
  }

  async #open(request: Request, endpoint: Endpoint, body: unknown): Promise<Response> {
    this.#opening[endpoint.tokenClass]++;
    const { server, standalone } = this.createServer(endpoint);
    const log = new EventLog();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomId(18),
      eventStore: log,
      // The table's own tick keeps every open event stream alive and cuts those not read (`keepAlive`); the
      // SDK's would arm and clear a second timer on every request's stream besides.
      keepAliveMs: 0,
      onsessioninitialized: (id) => {
        this.#sessions.set(id, {
          endpoint,
          transport,
          server,
          standalone,
          log,
          lastSeen: this.#now(),
          streaming: 0,
          ended: this.#work?.begin() ?? (() => {}),
        });
        this.logger.log("session.opened", { path: endpoint.path, session: id });
      },
    });
    // Set before connect: the server replaces onclose handlers it finds, and chains to this one.
    transport.onclose = () => {
      const id = transport.sessionId;
      const session = id ? this.#sessions.get(id) : undefined;
      if (id && session && this.#sessions.delete(id)) {
        session.ended();
        this.logger.log("session.closed", { path: endpoint.path, session: id });
      }
    };
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(request, { parsedBody: body });
      const session = transport.sessionId === undefined ? undefined : this.#sessions.get(transport.sessionId);
      // Metered as every later answer is, so that its stream leaves the event log once the client took it all.
      return session ? this.#tracked(session, response) : response;
    } finally {
      this.#opening[endpoint.tokenClass]--;
    }
  }

  /**
   * Counts `response` as activity of `session` until its body ends, metering it; a standalone GET stream is
   * announced to the session's listener while it is open.
   */
  #tracked(session: Session, response: Response, standalone?: { missed: boolean }): Response {
    if (!response.body) return response;
    session.streaming++;
    const eventStream = response.headers.get("content-type")?.startsWith("text/event-stream") ?? false;
    const metered = new MeteredBody(response.body, (body, delivered) => {
      session.streaming--;
      session.lastSeen = this.#now();
      this.#streams.delete(body);
      if (standalone) session.standalone?.closed(body);
      // The client has every event of this stream: the log need not keep them for a resume.
      if (delivered && body.firstEventId) session.log.delivered(body.firstEventId);
    });
    // Only an event stream may carry comments; a JSON answer is one chunk and ends by itself.
    if (eventStream && !metered.ended) this.#streams.add(metered);
    if (standalone) session.standalone?.opened(metered, standalone.missed);
    return new Response(metered.body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  }

  /** Closes every session opened on `path`, and their open streams (ending every Studio session, say). */
  async closeOn(path: string): Promise<void> {
    const closing = [...this.#sessions].filter(([, session]) => session.endpoint.path === path);
    for (const [id] of closing) this.#sessions.delete(id);
    await Promise.allSettled(closing.map(([, session]) => session.server.close()));
  }

  /** Closes every session's transport (and so its open streams); the HTTP server can then shut down. */
  async closeAll(): Promise<void> {
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    const sessions = [...this.#sessions.values()];
    await Promise.allSettled(sessions.map((session) => session.server.close()));
    for (const session of sessions) session.ended();
    this.#sessions.clear();
  }
}

/** Whether any message of the body asks for `initialize`, well-formed or not. */
function hasInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => (message as { method?: unknown } | null)?.method === "initialize");
}

/**
 * Whether a GET opens (or resumes) the standalone stream, and whether it resumes past the event log's
 * window; undefined when it resumes a request's stream instead.
 */
function standaloneResumption(session: Session, request: Request): { missed: boolean } | undefined {
  const lastEventId = request.headers.get("last-event-id");
  if (!lastEventId) return { missed: false };
  const resumption = session.log.resumption(lastEventId);
  return resumption?.streamId === STANDALONE_STREAM ? { missed: resumption.missed } : undefined;
}

function isInitialization(body: unknown): boolean {
  if (Array.isArray(body)) return body.some((message) => isInitializeRequest(message));
  return isInitializeRequest(body);
}
