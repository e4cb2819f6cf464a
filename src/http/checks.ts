/**
 * The request checks, each one concern, in the order the handler applies them after routing:
 * bearer token (401), Host (403), target in origin form (400), Origin (403), body size, nesting and JSON (413, 400).
 *
 * @module
 */

import { constantTimeEqual } from "../lib/tokens.ts";
import type { TokenClass } from "../mcp/endpoints.ts";
import { jsonRpcError, type Middleware } from "./middleware.ts";
import { readCappedBody } from "../lib/capped_body.ts";
import { MAX_JSON_DEPTH, nestingDepth } from "../lib/json_depth.ts";

/** The largest request body accepted. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Whether the request carries `Authorization: Bearer <expected>` (compared in constant time). */
export function hasBearer(request: Request, expected: string): boolean {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
  return match !== null && constantTimeEqual(match[1], expected);
}

/**
 * Requires `Authorization: Bearer <token>` with the token of the endpoint's class, unless a check before it
 * authenticated the request otherwise (the Studio cookie, on Studio's paths only). The external token never
 * opens an internal endpoint, and the other way round.
 */
export function requireBearer(tokens: Record<TokenClass, string>): Middleware {
  return (request, state, next) => {
    if (state.credential) return next();
    if (!hasBearer(request, tokens[state.endpoint.tokenClass])) {
      return Promise.resolve(
        jsonRpcError(401, -32001, "Unauthorized: send the bearer token of this endpoint", {
          "www-authenticate": 'Bearer realm="weft"',
        }),
      );
    }
    return next();
  };
}

/** The loopback authorities this instance answers to. */
export function loopbackHosts(port: number): ReadonlySet<string> {
  // Asked on every request, always for the same port: the last answer is kept.
  if (lastHosts?.port !== port) {
    lastHosts = { port, hosts: new Set([`127.0.0.1:${port}`, `localhost:${port}`]) };
  }
  return lastHosts.hosts;
}

let lastHosts: { port: number; hosts: ReadonlySet<string> } | undefined;

/** Rejects a `Host` other than this instance's loopback address and port (DNS rebinding). */
export function requireLoopbackHost(port: () => number): Middleware {
  return (request, _state, next) => {
    const host = (request.headers.get("host") ?? "").toLowerCase();
    if (!loopbackHosts(port()).has(host)) {
      return Promise.resolve(
        jsonRpcError(403, -32000, "Forbidden: Host must be this service's loopback address"),
      );
    }
    return next();
  };
}

/** Whether `origin` (an `Origin` header's value) is this instance's own loopback origin. */
export function isOwnOrigin(origin: string, port: number): boolean {
  const lower = origin.toLowerCase();
  return [...loopbackHosts(port)].some((host) => lower === `http://${host}`);
}

/** Rejects a present `Origin` that is not this instance's own loopback origin (browser pages elsewhere). */
export function requireOwnOrigin(port: () => number): Middleware {
  return (request, _state, next) => {
    const origin = request.headers.get("origin");
    if (origin !== null && !isOwnOrigin(origin, port())) {
      return Promise.resolve(jsonRpcError(403, -32000, "Forbidden: Origin is not allowed"));
    }
    return next();
  };
}

/**
 * Caps a POST body at {@linkcode MAX_BODY_BYTES} while reading it (a missing or false Content-Length cannot
 * slip past), then parses it as JSON once for the session stage.
 */
export function readJsonBody(limit = MAX_BODY_BYTES): Middleware {
  return async (request, state, next) => {
    if (request.method !== "POST") return next();
    const declared = Number(request.headers.get("content-length") ?? "NaN");
    if (declared > limit) {
      await request.body?.cancel();
      return tooLarge(limit);
    }
    // A declared length holds the body to it (the HTTP server reads no further), so it is read whole at once;
    // without one (chunked), it is read chunk by chunk up to the cap.
    const bytes = declared >= 0 && !request.headers.has("transfer-encoding")
      ? new Uint8Array(await request.arrayBuffer())
      : await readCappedBody(request.body, limit);
    if (bytes === null || bytes.byteLength > limit) return tooLarge(limit);
    if (nestingDepth(bytes) > MAX_JSON_DEPTH) {
      return jsonRpcError(
        400,
        -32600,
        `Invalid Request: the JSON is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`,
      );
    }
    try {
      state.body = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return jsonRpcError(400, -32700, "Parse error: the body is not valid JSON");
    }
    return next();
  };
}

/**
 * Refuses a request whose target is in absolute form naming another authority (`POST http://other.example/mcp`):
 * clients of weft send a path, and such a URL is a proxy request this service does not serve. `Deno.serve`
 * builds the URL of a path-only target from `Host`, which the check before has held to this instance's
 * loopback address, so only a target that names its own authority can differ from it.
 */
export function requireOriginForm(port: () => number): Middleware {
  return (request, state, next) => {
    if (!loopbackHosts(port()).has((state.url ?? new URL(request.url)).host.toLowerCase())) {
      return Promise.resolve(
        jsonRpcError(400, -32600, "Bad Request: the request target must be a path (origin form), not a URL"),
      );
    }
    return next();
  };
}

function tooLarge(limit: number): Response {
  return jsonRpcError(413, -32000, `Payload too large: request bodies are limited to ${limit} bytes`);
}
