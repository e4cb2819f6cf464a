/**
 * One session of MCP's Streamable HTTP transport with the service, as a client that validates nothing needs it
 * (`service_session.ts` builds on it, for the bridge of `weft mcp` and for every command; so does Studio's
 * page, `src/studio/page/mcp_session.ts`, which bundles it: no runtime API here beyond the browser's).
 * Messages go out by POST and their answers come back as JSON or on the request's event stream; once the
 * session is initialized, a GET stream carries what the service sends on its own (notifications). A stream
 * that breaks is resumed with `Last-Event-ID`, as the SDK's client does (a few tries, with the waits of
 * `reconnect.ts`); every break is also reported, so the session above can tell a restarted service from a
 * passing hiccup.
 *
 * No message is validated here: the service checks what it receives, the IDE what it is sent.
 *
 * The credentials (a bearer token for the commands; the tab key for Studio's page, whose cookie the browser
 * adds) go only to the service the session was opened with. Once a stream has broken or a request found
 * nobody listening, the service may be gone and another program may hold its port: the session sends nothing
 * more (no resume, no message, no DELETE) until `stillServes` confirms that the same instance still holds the
 * project and listens there, and stops for good when it does not (the page, whose origin is the service's,
 * has nothing to check).
 *
 * @module
 */

import { WeftError } from "../errors.ts";
import { isAnswer, isNotification, type JSONRPCMessage } from "./jsonrpc.ts";
import { retryDelayMs } from "./reconnect.ts";
import { serverSentEvents } from "./sse.ts";

/** The service answered with an HTTP error status, `status` (404: the session is gone). */
export class HttpStatusError extends WeftError {
  constructor(readonly status: number, message: string) {
    super("FAILURE", message);
    this.name = "HttpStatusError";
  }
}

/** The service the session was opened with no longer runs (or is not the one on its port): nothing was sent. */
export class ServiceGoneError extends WeftError {
  constructor(message: string) {
    super("SERVICE_OFFLINE", message);
    this.name = "ServiceGoneError";
  }
}

/** A DELETE at the end of a session waits this long for a service that hangs, then gives up. */
const TERMINATE_MS = 2000;

/** How often a broken stream is resumed before the break is left to the session above (the SDK's default). */
const RESUME_TRIES = 2;
/** The longest wait before a resume, whatever the service asks for with `retry:`. */
const LONGEST_RESUME_WAIT_MS = 30_000;

/** One MCP session on one endpoint of the service. */
export class HttpSession {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  /**
   * The answer to request `id` can no longer come: its stream ended before it and could not be resumed (no
   * event id to resume from, or every try failed), or the session was closed while it was awaited. Whoever
   * sent the request is owed an answer all the same.
   */
  onlost?: (id: string | number, error: Error) => void;
  #sessionId: string | undefined;
  #protocolVersion: string | undefined;
  #closed = false;
  /** Set as the session is ended (DELETE): the service then ends its streams, which is no break to report. */
  #ending = false;
  /** Requests whose answers are awaited on an event stream (the request's own, or its resumption). */
  readonly #awaiting = new Set<string | number>();
  readonly #abort = new AbortController();
  /** The wait the service asked for with `retry:`, if it did. */
  #retryMs: number | undefined;

  /** Set once a stream broke or a request found nobody: the next request waits for `stillServes`. */
  #suspect = false;
  /** `stillServes` said no: nothing is sent any more. */
  #gone = false;
  /** The session is initialized, so it has a GET stream of its own. */
  #initialized = false;
  /** That stream is open, or being reopened after a break. */
  #listening = false;
  /** The last event id of that stream, to resume from when it is reopened. */
  #listenedUpTo: string | undefined;

  /**
   * `credentials` are the headers that authenticate every request; `stillServes` says whether the service
   * this session was opened with still runs and listens at `url` (checked before they are sent after a break).
   */
  constructor(
    readonly url: URL,
    private readonly credentials: Readonly<Record<string, string>>,
    private readonly stillServes: () => Promise<boolean>,
  ) {}

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** The version negotiated by `initialize`, sent on every later request as MCP requires. */
  setProtocolVersion(version: string): void {
    this.#protocolVersion = version;
  }

  /**
   * POSTs one message. Resolves once the service has accepted it; its answer, and whatever the service sends
   * on the way, arrive through `onmessage`.
   */
  async send(message: JSONRPCMessage): Promise<void> {
    const response = await this.#dial({
      method: "POST",
      headers: this.#headers({
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      }),
      body: JSON.stringify(message),
      signal: this.#abort.signal,
    });
    const sessionId = response.headers.get("mcp-session-id");
    if (sessionId) this.#sessionId = sessionId;
    if (!response.ok) {
      const text = await response.text().catch(() => "");
      throw new HttpStatusError(
        response.status,
        `Error POSTing to endpoint (HTTP ${response.status}): ${text}`,
      );
    }
    if (response.status === 202) {
      await response.body?.cancel();
      if (isNotification(message) && message.method === "notifications/initialized") {
        this.#initialized = true;
        this.listen();
      }
      return;
    }
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("text/event-stream")) {
      const answers = "method" in message && "id" in message ? message.id : undefined;
      if (answers !== undefined) this.#awaiting.add(answers);
      void this.#read(response.body!, answers);
      return;
    }
    if (type.includes("application/json")) {
      const body: unknown = await response.json();
      for (const each of Array.isArray(body) ? body : [body]) this.onmessage?.(each as JSONRPCMessage);
      return;
    }
    await response.body?.cancel();
    throw new HttpStatusError(response.status, `Unexpected content type: ${type}`);
  }

  /**
   * Opens the session's own GET stream again if it gave up after its tries (say, the service refused it while
   * it still held the broken one), resuming after its last event. Does nothing while it is open.
   */
  listen(): void {
    if (!this.#initialized || this.#listening || this.#closed || this.#gone) return;
    this.#listening = true;
    void this.#follow(this.#listenedUpTo).finally(() => this.#listening = false);
  }

  /** Ends the session on the service (DELETE); a service that does not allow it (405) is fine. */
  async terminateSession(): Promise<void> {
    if (!this.#sessionId) return;
    this.#ending = true;
    const response = await this.#dial({
      method: "DELETE",
      headers: this.#headers({}),
      // A page ends its session as it unloads: a browser goes on with a keep-alive request after that.
      keepalive: true,
      signal: AbortSignal.any([this.#abort.signal, AbortSignal.timeout(TERMINATE_MS)]),
    });
    await response.body?.cancel();
    if (!response.ok && response.status !== 405) {
      throw new HttpStatusError(response.status, `Failed to terminate session: ${response.statusText}`);
    }
    this.#sessionId = undefined;
  }

  /** Stops every request and stream of this session. */
  close(): Promise<void> {
    this.#closed = true;
    this.#abort.abort();
    for (const id of [...this.#awaiting]) {
      this.#lost(id, new Error("the session with the service was closed before the answer came"));
    }
    return Promise.resolve();
  }

  /** Reads a request's event stream; if it breaks before the answer, resumes it. */
  async #read(body: ReadableStream<Uint8Array>, answers: string | number | undefined): Promise<void> {
    const outcome = await this.#deliver(body, answers).catch((error) => ({ error, lastEventId: undefined }));
    if (outcome === "answered" || this.#closed || this.#ending) return;
    // A stream that ends before its answer may mean the service went away: the resume waits for the check.
    this.#suspect = true;
    if ("error" in outcome && outcome.error) this.onerror?.(outcome.error);
    if (answers === undefined) return;
    if (outcome.lastEventId === undefined) {
      // Without an event id there is nothing to resume from: the answer is lost with the stream.
      const reason = outcome.error?.message ?? "the service ended the stream";
      return this.#lost(
        answers,
        new Error(`${reason}, before the answer and with no event id to resume from`),
      );
    }
    await this.#follow(outcome.lastEventId, answers);
  }

  /**
   * The GET stream: the session's own (`answers` undefined), or the resumption of a request's stream after
   * `lastEventId`. Reopened after a break, a few times with growing waits, each break reported.
   */
  async #follow(lastEventId?: string, answers?: string | number): Promise<void> {
    let failures = 0;
    while (!this.#closed) {
      let error: Error;
      try {
        const response = await this.#dial({
          method: "GET",
          headers: this.#headers({
            accept: "text/event-stream",
            ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }),
          }),
          signal: this.#abort.signal,
        });
        // The service offers no stream of its own.
        if (response.status === 405 && answers === undefined) return void await response.body?.cancel();
        if (!response.ok || !response.body) {
          await response.body?.cancel();
          throw new HttpStatusError(response.status, `Failed to open SSE stream: ${response.statusText}`);
        }
        failures = 0;
        const outcome = await this.#deliver(response.body, answers, lastEventId);
        if (outcome === "answered") return;
        lastEventId = outcome.lastEventId;
        if (answers === undefined) this.#listenedUpTo = lastEventId;
        error = outcome.error ?? new Error("SSE stream disconnected");
      } catch (thrown) {
        error = thrown as Error;
      }
      if (this.#closed || this.#ending) return;
      this.#suspect = true;
      this.onerror?.(error);
      if (this.#gone || ++failures > RESUME_TRIES) {
        if (answers !== undefined) {
          this.#lost(answers, new Error(`the stream could not be resumed: ${error.message}`));
        }
        return;
      }
      await this.#sleep(Math.min(this.#retryMs ?? retryDelayMs(failures), LONGEST_RESUME_WAIT_MS));
    }
  }

  /**
   * Passes on the messages of one event stream until it ends; "answered" once the answer to `answers` came,
   * else the last event id seen and the error that ended it, if any.
   */
  async #deliver(
    body: ReadableStream<Uint8Array>,
    answers: string | number | undefined,
    lastEventId?: string,
  ): Promise<"answered" | { lastEventId: string | undefined; error?: Error }> {
    try {
      for await (const event of serverSentEvents(body)) {
        if (event.id !== undefined) lastEventId = event.id;
        if (event.retry !== undefined) this.#retryMs = event.retry;
        if (event.event !== "message" || !event.data) continue;
        let message: JSONRPCMessage;
        try {
          message = JSON.parse(event.data);
        } catch {
          this.onerror?.(new Error(`unreadable event from the service: ${event.data.slice(0, 80)}`));
          continue;
        }
        const isTheAnswer = answers !== undefined && isAnswer(message) && message.id === answers;
        // No longer awaited from here on: a close() while this stream is wound up must not report it lost.
        if (isTheAnswer) this.#awaiting.delete(answers);
        this.onmessage?.(message);
        if (isTheAnswer) return "answered";
      }
      return { lastEventId };
    } catch (error) {
      return { lastEventId, error: error as Error };
    }
  }

  /**
   * `fetch` to the service, unless it may be gone: after a break, only once `stillServes` has confirmed it.
   * Finding nobody listening makes the session suspect too.
   */
  async #dial(init: RequestInit): Promise<Response> {
    if (this.#suspect && !this.#gone) {
      this.#gone = !(await this.stillServes().catch(() => false));
      if (!this.#gone) this.#suspect = false;
    }
    if (this.#gone) {
      throw new ServiceGoneError("the service this session was opened with no longer runs; nothing was sent");
    }
    try {
      return await fetch(this.url, init);
    } catch (error) {
      if (error instanceof TypeError) this.#suspect = true;
      throw error;
    }
  }

  /** Reports the answer to `id` lost, once. */
  #lost(id: string | number, error: Error): void {
    if (this.#awaiting.delete(id)) this.onlost?.(id, error);
  }

  #headers(extra: Record<string, string>): Headers {
    const headers = new Headers(extra);
    for (const [name, value] of Object.entries(this.credentials)) headers.set(name, value);
    if (this.#sessionId) headers.set("mcp-session-id", this.#sessionId);
    if (this.#protocolVersion) headers.set("mcp-protocol-version", this.#protocolVersion);
    return headers;
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const woken = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#abort.signal.removeEventListener("abort", woken);
        resolve();
      }, ms);
      this.#abort.signal.addEventListener("abort", woken, { once: true });
    });
  }
}
