/**
 * MCP 2026-07-28 on every endpoint: sessionless requests, each carrying its protocol version, client info and
 * capabilities in `_meta`, served by the SDK's per-request entry with one fresh server per request (built by
 * the MCP layer for the endpoint the path names, so the path alone still decides the source). The bearer
 * token of the path has authenticated each request before it gets here. The entry answers `server/discover`,
 * holds `subscriptions/listen` streams (fed by the shared change bus), and refuses a version it does not
 * speak with -32022 naming those it does. 2025-11-25 traffic never reaches it (`sessions.ts` serves that).
 *
 * @module
 */

import { createMcpHandler, type McpHttpHandler, type Server, type ServerEventBus } from "../mcp/sdk.ts";
import type { Endpoint } from "../mcp/endpoints.ts";
import type { Logger } from "../lib/logger.ts";
import type { WorkInProgress } from "../lib/work_in_progress.ts";

/** What the modern entry is built with. */
export interface ModernRequestsOptions {
  /** Where the listen streams' change events come from. */
  bus: ServerEventBus;
  /** Open `subscriptions/listen` streams at most, per endpoint. */
  maxSubscriptions: number;
  /** The keep-alive comment interval on the entry's event streams. */
  keepAliveMs: number;
  logger: Logger;
  /**
   * Where each request counts as work in progress until its answer has streamed to its end, so that an open
   * `subscriptions/listen` stream keeps the service as an open session does.
   */
  work?: WorkInProgress;
}

/** The 2026-07-28 entry of each endpoint, made at the endpoint's first such request. */
export class ModernRequests {
  readonly #handlers = new Map<string, McpHttpHandler>();

  constructor(
    private readonly createServer: (endpoint: Endpoint) => Server,
    private readonly options: ModernRequestsOptions,
  ) {}

  /** Serves one 2026-07-28 request that passed every check; `body` is the POST's parsed JSON. */
  async handle(request: Request, endpoint: Endpoint, body: unknown): Promise<Response> {
    // The SDK listens to the request's signal to notice a client that left. Deno's fires after every answer
    // as well, and then warns on stderr at each; a copy without it leaves that to the stream's end, which a
    // client that leaves cancels anyway. The body is already parsed, so the copy needs none.
    const detached = new Request(request.url, { method: request.method, headers: request.headers });
    const ended = this.options.work?.begin() ?? (() => {});
    let response: Response;
    try {
      response = await this.#handlerOf(endpoint).fetch(
        detached,
        body === undefined ? {} : { parsedBody: body },
      );
    } catch (error) {
      ended();
      throw error;
    }
    if (response.body) return untilEnd(response, ended);
    ended();
    return response;
  }

  /** Ends every listen stream (each gets its graceful end first) and request in flight. */
  async close(): Promise<void> {
    const handlers = [...this.#handlers.values()];
    this.#handlers.clear();
    await Promise.allSettled(handlers.map((handler) => handler.close()));
  }

  #handlerOf(endpoint: Endpoint): McpHttpHandler {
    let handler = this.#handlers.get(endpoint.path);
    if (!handler) {
      const { bus, maxSubscriptions, keepAliveMs, logger } = this.options;
      handler = createMcpHandler(() => this.createServer(endpoint), {
        // 2025-11-25 has its sessions (`sessions.ts`); only requests that carry the new envelope come here.
        legacy: "reject",
        bus,
        maxSubscriptions,
        keepAliveMs,
        // The kind only: a message may quote what the client sent.
        onerror: (error) => logger.log("mcp.request_refused", { path: endpoint.path, kind: error.name }),
      });
      this.#handlers.set(endpoint.path, handler);
    }
    return handler;
  }
}

/** `response` with a body that calls `ended` once it has been read to its end or cancelled. */
function untilEnd(response: Response, ended: () => void): Response {
  const reader = response.body!.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          ended();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        ended();
        controller.error(error);
      }
    },
    cancel(reason) {
      ended();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
