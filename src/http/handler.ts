/**
 * The service's one `(Request) => Promise<Response>` handler: route by path to an endpoint (404), then the
 * checks in their fixed order, then the endpoint's sessions.
 *
 * @module
 */

import { endpointAt, type TokenClass } from "../mcp/endpoints.ts";
import {
  readJsonBody,
  requireBearer,
  requireLoopbackHost,
  requireOriginForm,
  requireOwnOrigin,
} from "./checks.ts";
import { compose, jsonRpcError } from "./middleware.ts";
import type { SessionTable } from "./sessions.ts";

/** What the handler needs: the tokens, the bound port (known only once listening), and the sessions. */
export interface HandlerOptions {
  tokens: Record<TokenClass, string>;
  port: () => number;
  sessions: SessionTable;
}

/** Builds the handler given to `Deno.serve`. */
export function createHandler(options: HandlerOptions): (request: Request) => Promise<Response> {
  const serve = compose(
    [
      requireBearer(options.tokens),
      requireLoopbackHost(options.port),
      requireOriginForm(options.port),
      requireOwnOrigin(options.port),
      readJsonBody(),
    ],
    (request, state) => options.sessions.handle(request, state.endpoint, state.body),
  );
  return async (request) => {
    const path = pathOf(request);
    // An unparseable URL can only come from a forged Host; refuse it the way the Host check would.
    if (path === null) {
      return jsonRpcError(403, -32000, "Forbidden: Host must be this service's loopback address");
    }
    const endpoint = endpointAt(path);
    if (!endpoint) {
      await request.body?.cancel();
      return jsonRpcError(404, -32000, "Not found");
    }
    return await serve(request, { endpoint });
  };
}

function pathOf(request: Request): string | null {
  try {
    return new URL(request.url).pathname;
  } catch {
    return null;
  }
}
