/**
 * The service's one `(Request) => Promise<Response>` handler: route by path to an endpoint or to Studio's
 * pages (404), then the checks in their fixed order, then the page, or the endpoint's MCP: its 2025-11-25
 * sessions, or its 2026-07-28 requests (those that carry the new revision's `_meta` envelope).
 *
 * @module
 */

import { endpointAt, endpointFor, type TokenClass } from "../mcp/endpoints.ts";
import {
  readJsonBody,
  requireBearer,
  requireLoopbackHost,
  requireOriginForm,
  requireOwnOrigin,
} from "./checks.ts";
import { compose, type Handler, jsonRpcError } from "./middleware.ts";
import type { SessionTable } from "./sessions.ts";
import type { ModernRequests } from "./modern_requests.ts";
import { isLegacyRequest } from "../mcp/sdk.ts";
import { StudioAccess } from "./studio_access.ts";
import { acceptStudioCookie } from "./studio_cookie.ts";
import { isStudioPath, studioPages, type StudioPagesOptions } from "./studio_pages.ts";
import type { StudioRedirectFiles } from "./studio_redirect.ts";
import { Logger } from "../lib/logger.ts";

/** What the handler needs: the tokens, the bound port (known only once listening), and the sessions. */
export interface HandlerOptions {
  tokens: Record<TokenClass, string>;
  port: () => number;
  sessions: SessionTable;
  /** The 2026-07-28 requests; without it, every endpoint speaks 2025-11-25 only. */
  modern?: ModernRequests;
  /** Studio's tickets and sessions; by default a fresh one keyed by the internal token. */
  studio?: StudioAccess;
  /** Where `weft studio`'s redirect files go; without it, none are written. */
  redirectFiles?: StudioRedirectFiles;
  logger?: Logger;
  /** Answers `list_runs` for the first view embedded in the page a Studio ticket opens. */
  listRuns?: StudioPagesOptions["listRuns"];
}

/** Builds the handler given to `Deno.serve`. */
export function createHandler(options: HandlerOptions): (request: Request) => Promise<Response> {
  const studio = options.studio ?? new StudioAccess(options.tokens.internal);
  const studioEndpoint = endpointFor("studio");
  const addressChecks = [
    requireLoopbackHost(options.port),
    requireOriginForm(options.port),
    requireOwnOrigin(options.port),
  ];
  const checks = [requireBearer(options.tokens), ...addressChecks];
  const { sessions, modern } = options;
  const session: Handler = async (request, state) =>
    !modern || await isLegacyRequest(request, state.body)
      ? await sessions.handle(request, state.endpoint, state.body)
      : await modern.handle(request, state.endpoint, state.body);
  const toSession = compose([...checks, readJsonBody()], session);
  // Only Studio's endpoint looks at the Studio cookie: on every other path it opens nothing.
  const toStudioSession = compose(
    [acceptStudioCookie(studio, options.port), ...checks, readJsonBody()],
    session,
  );
  // The pages judge their own credential (a ticket, the cookie or the internal token) and answer in HTML.
  const toStudioPage = compose(
    addressChecks,
    studioPages({
      access: studio,
      internalToken: options.tokens.internal,
      port: options.port,
      logger: options.logger ?? Logger.silent(),
      redirectFiles: options.redirectFiles,
      closeMcpSessions: () => options.sessions.closeOn(studioEndpoint.path),
      listRuns: options.listRuns,
    }),
  );
  return async (request) => {
    const url = urlOf(request);
    // An unparseable URL can only come from a forged Host; refuse it the way the Host check would.
    if (url === null) {
      return jsonRpcError(403, -32000, "Forbidden: Host must be this service's loopback address");
    }
    const path = url.pathname;
    if (isStudioPath(path)) return await toStudioPage(request, { endpoint: studioEndpoint, url });
    const endpoint = endpointAt(path);
    if (!endpoint) {
      await request.body?.cancel();
      return jsonRpcError(404, -32000, "Not found");
    }
    return await (endpoint === studioEndpoint ? toStudioSession : toSession)(request, { endpoint, url });
  };
}

function urlOf(request: Request): URL | null {
  try {
    return new URL(request.url);
  } catch {
    return null;
  }
}
