/**
 * The shape of the HTTP layer: web-standard handlers and small middleware composed in a fixed order.
 *
 * @module
 */

import type { Endpoint } from "../mcp/endpoints.ts";

/** What earlier checks learned about a request, for the checks after them. */
export interface RequestState {
  endpoint: Endpoint;
  /** The request's URL, parsed once by the router. */
  url?: URL;
  /** The JSON body of a POST, parsed once by the body check. */
  body?: unknown;
  /** Set when the Studio session cookie, not a bearer token, authenticated the request. */
  credential?: "studio-cookie";
}

/** The last stage: answers a request that passed every check. */
export type Handler = (request: Request, state: RequestState) => Promise<Response>;

/** One check: answers by itself (a refusal) or passes on to `next`. */
export type Middleware = (
  request: Request,
  state: RequestState,
  next: () => Promise<Response>,
) => Promise<Response>;

/** Runs `middlewares` in order in front of `handler`. */
export function compose(middlewares: readonly Middleware[], handler: Handler): Handler {
  return (request, state) => {
    const step = (index: number): Promise<Response> =>
      index === middlewares.length
        ? handler(request, state)
        : middlewares[index](request, state, () => step(index + 1));
    return step(0);
  };
}

/** A JSON-RPC error response with no id, as MCP clients expect for transport-level refusals. */
export function jsonRpcError(status: number, code: number, message: string, headers?: HeadersInit): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers });
}
