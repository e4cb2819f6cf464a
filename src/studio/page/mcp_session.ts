/**
 * One MCP session of the page with `/internal/mcp/studio`, spoken over the clients' own Streamable HTTP
 * session (`src/client/http_session.ts`), as `weft mcp` speaks it: requests matched to their answers by id,
 * the service's notifications handed on, nothing validated (the service checks what it receives, and its
 * answers are the page's own shapes). The MCP SDK's client and its schemas were most of the page's program.
 *
 * @module
 */

import { HttpSession } from "../../client/http_session.ts";
import { isAnswer, isNotification, type JSONRPCMessage } from "../../client/jsonrpc.ts";
import { PROTOCOL_VERSION } from "../../client/protocol_version.ts";

/** The service answered a request with a JSON-RPC error (an unknown resource, say). */
export class AnswerError extends Error {
  constructor(readonly code: number, message: string) {
    super(`MCP error ${code}: ${message}`);
  }
}

/**
 * The answer to a request can no longer come: its stream broke, the session was closed meanwhile, or the
 * service let it wait past {@linkcode ANSWER_WITHIN_MS}.
 */
export class AnswerLostError extends Error {}

/**
 * How long a request waits for its answer (the SDK's client waited as long). Every Studio request is a quick
 * engine operation; one unanswered this long means a session in trouble, which the page replaces.
 */
export const ANSWER_WITHIN_MS = 60_000;

/** How a session is opened; `answerWithinMs` is shortened by tests. */
export interface SessionOptions {
  answerWithinMs?: number;
}

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

/** An initialized MCP session; `onNotification` hears what the service sends on its own. */
export class McpSession {
  onNotification?: (method: string, params: unknown) => void;
  /** The session's streams broke: it no longer hears changes, and its answers may not come. */
  onBroken?: (error: Error) => void;
  readonly #http: HttpSession;
  readonly #pending = new Map<number, Pending>();
  readonly #answerWithinMs: number;
  #nextId = 1;
  #broken = false;

  private constructor(http: HttpSession, answerWithinMs: number) {
    this.#http = http;
    this.#answerWithinMs = answerWithinMs;
    http.onmessage = (message) => this.#received(message);
    http.onlost = (id, error) =>
      this.#settle(id, (pending) => pending.reject(new AnswerLostError(error.message)));
    http.onerror = (error) => {
      this.#broken = true;
      this.onBroken?.(error);
    };
  }

  /** Whether a stream of the session has broken since it opened (it may have missed notifications). */
  get broken(): boolean {
    return this.#broken;
  }

  /**
   * Opens a session at `url` whose requests carry `credentials` (the browser adds the cookie): `initialize`,
   * then `notifications/initialized`, after which the service's notification stream is open. A failure ends
   * the session on the service when it had been opened there, closes it, and throws.
   */
  static async open(
    url: URL,
    credentials: Record<string, string>,
    options: SessionOptions = {},
  ): Promise<McpSession> {
    const session = McpSession.create(url, credentials, options);
    try {
      await session.initialize();
    } catch (error) {
      await session.terminate().catch(() => {});
      await session.close();
      throw error;
    }
    return session;
  }

  /**
   * A session at `url` that has sent nothing yet: {@linkcode initialize} opens it. Its owner holds it from
   * here on, so it can end the session while it is still opening (the page leaving meanwhile).
   */
  static create(url: URL, credentials: Record<string, string>, options: SessionOptions = {}): McpSession {
    // The page's origin is the service's: there is no other program to send the credentials to by mistake.
    return new McpSession(
      new HttpSession(url, credentials, () => Promise.resolve(true)),
      options.answerWithinMs ?? ANSWER_WITHIN_MS,
    );
  }

  /**
   * `initialize`, then `notifications/initialized`. A failure throws and leaves the session to its owner, who
   * ends it on the service ({@linkcode terminate}: the service may have opened it) and closes it.
   */
  async initialize(): Promise<void> {
    const result = await this.request("initialize", {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "weft-studio", version: "1" },
    }) as { protocolVersion?: unknown };
    if (typeof result?.protocolVersion === "string") {
      this.#http.setProtocolVersion(result.protocolVersion);
    }
    await this.#http.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }

  /**
   * Sends request `method` and resolves with its result; a JSON-RPC error rejects with an
   * {@linkcode AnswerError}, no answer in time with an {@linkcode AnswerLostError}.
   */
  request(method: string, params: Record<string, unknown>): Promise<unknown> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const seconds = this.#answerWithinMs / 1000;
        this.#settle(id, (pending) => pending.reject(new AnswerLostError(`no answer within ${seconds} s`)));
      }, this.#answerWithinMs);
      const done = <T>(settle: (value: T) => void) => (value: T) => {
        clearTimeout(timer);
        settle(value);
      };
      this.#pending.set(id, { resolve: done(resolve), reject: done(reject) });
      this.#http.send({ jsonrpc: "2.0", id, method, params }).catch((error: Error) =>
        this.#settle(id, (pending) => pending.reject(error))
      );
    });
  }

  /** Ends the session on the service (DELETE). */
  terminate(): Promise<void> {
    return this.#http.terminateSession();
  }

  /** Stops every request and stream of the session; requests still awaited reject. */
  close(): Promise<void> {
    const closed = this.#http.close();
    for (const id of [...this.#pending.keys()]) {
      this.#settle(id, (pending) => pending.reject(new AnswerLostError("the session was closed")));
    }
    return closed;
  }

  #received(message: JSONRPCMessage): void {
    if (isNotification(message)) return this.onNotification?.(message.method, message.params);
    if (!isAnswer(message) || typeof message.id !== "number") return;
    const { result, error } = message as { result?: unknown; error?: { code?: number; message?: string } };
    this.#settle(
      message.id,
      (pending) =>
        error
          ? pending.reject(new AnswerError(error.code ?? 0, error.message ?? ""))
          : pending.resolve(result),
    );
  }

  #settle(id: string | number, settle: (pending: Pending) => void): void {
    const pending = this.#pending.get(id as number);
    if (!pending) return;
    this.#pending.delete(id as number);
    settle(pending);
  }
}
