/**
 * The request checks, each one concern, in the order the handler applies them after routing:
 * bearer token (401), Host (403), Origin (403), body size and JSON (413, 400).
 *
 * @module
 */

import { constantTimeEqual } from "../lib/tokens.ts";
import type { TokenClass } from "../mcp/endpoints.ts";
import { jsonRpcError, type Middleware } from "./middleware.ts";

/** The largest request body accepted. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Requires `Authorization: Bearer <token>` with the token of the endpoint's class. The external token never
 * opens an internal endpoint, and the other way round.
 */
export function requireBearer(tokens: Record<TokenClass, string>): Middleware {
  return (request, state, next) => {
    const header = request.headers.get("authorization") ?? "";
    const match = /^Bearer ([^\s]+)$/i.exec(header.trim());
    const expected = tokens[state.endpoint.tokenClass];
    if (!match || !constantTimeEqual(match[1], expected)) {
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
export function loopbackHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

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

/** Rejects a present `Origin` that is not this instance's own loopback origin (browser pages elsewhere). */
export function requireOwnOrigin(port: () => number): Middleware {
  return (request, _state, next) => {
    const origin = request.headers.get("origin");
    if (origin !== null) {
      const allowed = [...loopbackHosts(port())].map((host) => `http://${host}`);
      if (!allowed.includes(origin.toLowerCase())) {
        return Promise.resolve(jsonRpcError(403, -32000, "Forbidden: Origin is not allowed"));
      }
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
    const bytes = await readCapped(request, limit);
    if (bytes === null) return tooLarge(limit);
    try {
      state.body = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return jsonRpcError(400, -32700, "Parse error: the body is not valid JSON");
    }
    return next();
  };
}

function tooLarge(limit: number): Response {
  return jsonRpcError(413, -32000, `Payload too large: request bodies are limited to ${limit} bytes`);
}

async function readCapped(request: Request, limit: number): Promise<Uint8Array | null> {
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
