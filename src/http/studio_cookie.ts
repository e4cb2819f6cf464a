/**
 * The Studio session cookie: how it is set, where it counts, and the one check that lets it, together with
 * the page's tab key, stand in for the internal bearer token on Studio's own paths.
 *
 * The browser sends a cookie to every port of 127.0.0.1, so its name carries the port (two projects' services
 * never overwrite each other's), and it is set twice, once per path that accepts it (`/studio` and
 * `/internal/mcp/studio`), so the browser never sends it to `/mcp` or `/internal/mcp` at all. The server holds
 * the same line: only the chains of those two paths look at it. Because every other local server on those
 * paths receives it too, the cookie alone opens only the page's own files (the same for everyone); whatever
 * reads or changes the project also needs the tab key in {@linkcode STUDIO_KEY_HEADER} (`studio_access.ts`
 * says why and how the page gets it).
 *
 * @module
 */

import { jsonRpcError, type Middleware } from "./middleware.ts";
import { isOwnOrigin } from "./checks.ts";
import type { StudioAccess, StudioSession } from "./studio_access.ts";

/** The paths the cookie is scoped to; each is a path prefix in the cookie's sense. */
export const STUDIO_COOKIE_PATHS = ["/studio", "/internal/mcp/studio"] as const;

/** The header in which the page sends its tab key with every request that reads or changes the project. */
export const STUDIO_KEY_HEADER = "weft-studio-key";

/** The cookie's name for the service on `port`. */
export function studioCookieName(port: number): string {
  return `weft_studio_${port}`;
}

/** The `Set-Cookie` values that hand `session` to the browser, one per accepting path. */
export function studioCookies(port: number, session: StudioSession): string[] {
  // No Max-Age: the cookie ends with the browser session, and the server bounds it by the signed expiry.
  return STUDIO_COOKIE_PATHS.map((path) =>
    `${studioCookieName(port)}=${session.value}; Path=${path}; HttpOnly; SameSite=Strict`
  );
}

/** The `Set-Cookie` values that make the browser forget the cookie on every accepting path. */
export function endedStudioCookies(port: number): string[] {
  return STUDIO_COOKIE_PATHS.map((path) =>
    `${studioCookieName(port)}=; Path=${path}; Max-Age=0; HttpOnly; SameSite=Strict`
  );
}

/** The value of cookie `name` in the request's `Cookie` header, if any. */
export function cookieValue(request: Request, name: string): string | undefined {
  for (const pair of (request.headers.get("cookie") ?? "").split(";")) {
    const equals = pair.indexOf("=");
    if (equals > 0 && pair.slice(0, equals).trim() === name) return pair.slice(equals + 1).trim();
  }
  return undefined;
}

/**
 * Whether a request comes from a page of this service's own origin, as a request carrying the cookie must.
 * Browsers send `Origin` on every request but a same-origin GET or HEAD, so: an `Origin` that is present must
 * be ours, any other method must carry it, and a GET whose `Sec-Fetch-Site` says another site started it is
 * refused too (`none` is the address bar or `weft studio`).
 */
export function fromOwnPage(request: Request, port: number): boolean {
  const origin = request.headers.get("origin");
  if (origin !== null) return isOwnOrigin(origin, port);
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const site = request.headers.get("sec-fetch-site");
  return site === null || site === "same-origin" || site === "none";
}

/** What the cookie of a request amounts to. */
export type CookieVerdict =
  | { kind: "absent" }
  | { kind: "session"; session: StudioSession }
  | { kind: "refused"; status: 401 | 403; message: string };

/**
 * Judges the Studio cookie of `request`; a request with an `Authorization` header is left to its token. With
 * `tabKey`, the cookie counts only together with its session's tab key in {@linkcode STUDIO_KEY_HEADER}.
 */
export async function judgeStudioCookie(
  request: Request,
  access: StudioAccess,
  port: number,
  options: { tabKey: boolean },
): Promise<CookieVerdict> {
  if (request.headers.has("authorization")) return { kind: "absent" };
  const value = cookieValue(request, studioCookieName(port));
  if (value === undefined) return { kind: "absent" };
  if (!fromOwnPage(request, port)) {
    return {
      kind: "refused",
      status: 403,
      message: "Forbidden: a request with the Studio cookie must come from the Studio page itself",
    };
  }
  const session = await access.verify(value);
  if (!session) {
    return {
      kind: "refused",
      status: 401,
      message: "Unauthorized: this Studio session has ended; open Studio again with `weft studio`",
    };
  }
  if (options.tabKey && !await access.isTabKey(session, request.headers.get(STUDIO_KEY_HEADER) ?? "")) {
    return {
      kind: "refused",
      status: 401,
      message: "Unauthorized: this request lacks its Studio tab's key; open Studio again with `weft studio`",
    };
  }
  return { kind: "session", session };
}

/**
 * Adds the renewed cookies to a response when the session is past half its time, so that a page in use keeps
 * its session. The response is copied when its headers cannot be changed.
 */
export async function withRenewal(
  response: Response,
  session: StudioSession,
  access: StudioAccess,
  port: number,
): Promise<Response> {
  const renewed = await access.renewal(session);
  if (!renewed) return response;
  let answer = response;
  try {
    for (const cookie of studioCookies(port, renewed)) answer.headers.append("set-cookie", cookie);
  } catch {
    // Immutable headers refuse the first append, so the copy gets every cookie.
    answer = new Response(response.body, response);
    for (const cookie of studioCookies(port, renewed)) answer.headers.append("set-cookie", cookie);
  }
  return answer;
}

/**
 * The check in front of `/internal/mcp/studio`: a valid Studio cookie from the page's own origin, with its
 * tab key, authenticates the request in place of the internal bearer token (the token check after it then
 * lets it pass); a cookie from elsewhere is 403, an ended session or a missing or wrong key 401. Without a
 * cookie, the token decides.
 */
export function acceptStudioCookie(access: StudioAccess, port: () => number): Middleware {
  return async (request, state, next) => {
    const verdict = await judgeStudioCookie(request, access, port(), { tabKey: true });
    if (verdict.kind === "absent") return next();
    if (verdict.kind === "refused") return jsonRpcError(verdict.status, -32001, verdict.message);
    state.credential = "studio-cookie";
    return withRenewal(await next(), verdict.session, access, port());
  };
}
