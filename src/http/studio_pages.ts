/**
 * Studio's own paths under `/studio/`: minting tickets (with their redirect files) for holders of the internal
 * token, exchanging a ticket for the session cookie and the tab key, ending every session, and the page's
 * embedded files under a policy that lets them load nothing from anywhere else and be framed by no one.
 *
 * @module
 */

import { STUDIO_INDEX, STUDIO_SIGN_OUT_PATH, STUDIO_TICKET_PATH } from "../studio/paths.ts";
import {
  embeddedJson,
  FIRST_VIEW_CALLS,
  FIRST_VIEW_ELEMENT_ID,
  type FirstAnswer,
} from "../studio/first_view.ts";
import { firstViewHtml, type RunsPageFields } from "../studio/first_view_html.ts";
import { hasBearer } from "./checks.ts";
import { acceptsGzip, etagOf, StudioFiles } from "./studio_files.ts";
import { type Handler, jsonRpcError } from "./middleware.ts";
import type { StudioAccess } from "./studio_access.ts";
import { endedStudioCookies, judgeStudioCookie, studioCookies, withRenewal } from "./studio_cookie.ts";
import type { StudioRedirectFiles } from "./studio_redirect.ts";
import type { Logger } from "../lib/logger.ts";

/** The page's root element, empty in the embedded page; the script renders into it. */
const STUDIO_ROOT = '<div id="studio"></div>';

/** The `<meta>` element of the exchanged page that holds the tab key. */
const STUDIO_KEY_META = "weft-studio-key";

/** Whether `path` is one of Studio's own (not an MCP endpoint). */
export function isStudioPath(path: string): boolean {
  return path === "/studio" || path.startsWith("/studio/");
}

/** The address that opens Studio with `ticket`. */
export function studioUrl(port: number, ticket: string): string {
  return `http://127.0.0.1:${port}${STUDIO_INDEX}?ticket=${ticket}`;
}

/**
 * On every answer under `/studio/`: scripts, styles, images, fonts and connections from this origin only, no
 * inline code, no plugins, no framing; and no address sent on to anyone.
 */
export const STUDIO_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'self'; base-uri 'none'; object-src 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

/** What the Studio paths need. */
export interface StudioPagesOptions {
  access: StudioAccess;
  internalToken: string;
  port: () => number;
  logger: Logger;
  /** Where redirect files are written; without it, a ticket request for one is refused. */
  redirectFiles?: StudioRedirectFiles;
  /** Closes the MCP sessions Studio's pages opened, when every Studio session ends. */
  closeMcpSessions: () => Promise<void>;
  /** Answers `list_runs` as the page's endpoint would, for the first view embedded in the opened page. */
  listRuns?: (query: { status: "waiting"; limit: number }) => Promise<unknown>;
}

/** The handler of Studio's paths, after the Host, target and Origin checks. */
export function studioPages(options: StudioPagesOptions): Handler {
  const { access, port, logger } = options;
  let files: Promise<StudioFiles> | undefined;

  return async (request) => {
    const url = new URL(request.url);
    if (url.pathname === STUDIO_TICKET_PATH) return await issueTicket(request, url);
    if (url.pathname === STUDIO_SIGN_OUT_PATH) return await signOut(request);
    if (request.method !== "GET" && request.method !== "HEAD") {
      await request.body?.cancel();
      return page(405, "Not allowed", "Studio's pages are only read.", { allow: "GET, HEAD" });
    }
    if (url.pathname === "/studio") return redirect(308, STUDIO_INDEX + url.search);
    if (url.searchParams.has("ticket")) return await exchange(url);

    // The page's files are the same for everyone, so the cookie alone opens them; nothing here reads the
    // project.
    const verdict = await judgeStudioCookie(request, access, port(), { tabKey: false });
    if (verdict.kind === "refused") {
      logger.log("studio.refused", { status: verdict.status });
      return verdict.status === 403
        ? page(403, "Not from Studio", "This request did not come from the Studio page itself.")
        : page(
          401,
          "Studio session ended",
          "This Studio session has ended. Run `weft studio` to open it again.",
        );
    }
    if (verdict.kind === "absent" && !hasBearer(request, options.internalToken)) {
      return page(
        401,
        "Studio opens with weft studio",
        "Run `weft studio` in the project's folder: it opens this page with a single-use link.",
        { "www-authenticate": 'Bearer realm="weft"' },
      );
    }
    const file = (await (files ??= StudioFiles.load())).at(url.pathname);
    if (!file) return page(404, "Not found", "Studio has no such file.");
    const gzip = file.gzip !== undefined && acceptsGzip(request.headers.get("accept-encoding"));
    const etag = etagOf(file, gzip);
    const headers: Record<string, string> = {
      ...STUDIO_SECURITY_HEADERS,
      "content-type": file.contentType,
      // The page itself is never stored, so a new weft's page (naming its new files) is shown at once; a file
      // at its hashed name never changes; one at its plain name is revalidated.
      "cache-control": file.page
        ? "no-store"
        : file.immutable
        ? "private, max-age=31536000, immutable"
        : "private, no-cache",
      etag,
      vary: "accept-encoding",
      ...(gzip ? { "content-encoding": "gzip" } : {}),
    };
    const fresh = request.headers.get("if-none-match") === etag;
    const body = gzip ? file.gzip! : file.body;
    const response = new Response(fresh || request.method === "HEAD" ? null : body, {
      status: fresh ? 304 : 200,
      headers,
    });
    return verdict.kind === "session"
      ? await withRenewal(response, verdict.session, access, port())
      : response;
  };

  async function issueTicket(request: Request, url: URL): Promise<Response> {
    await request.body?.cancel();
    if (!hasBearer(request, options.internalToken)) return unauthorized();
    if (request.method !== "POST") {
      return jsonRpcError(405, -32000, "Method not allowed: ask for a ticket with POST", { allow: "POST" });
    }
    const withFile = url.searchParams.get("redirectFile") === "true";
    if (withFile && !options.redirectFiles) {
      return jsonRpcError(400, -32000, "This service writes no redirect files");
    }
    const { ticket, expiresAt } = access.issueTicket();
    const address = studioUrl(port(), ticket);
    const file = withFile ? { redirectFile: await options.redirectFiles!.write(ticket, address) } : {};
    logger.log("studio.ticket", { redirectFile: withFile });
    return Response.json(
      { url: address, ticket, expiresAt: expiresAt.toISOString(), ...file },
      { headers: NO_STORE_JSON },
    );
  }

  /** Ends every session and ticket, for the internal token or for the page with its cookie and tab key. */
  async function signOut(request: Request): Promise<Response> {
    await request.body?.cancel();
    const byToken = hasBearer(request, options.internalToken);
    const verdict = byToken ? null : await judgeStudioCookie(request, access, port(), { tabKey: true });
    if (verdict?.kind === "refused") {
      logger.log("studio.refused", { status: verdict.status });
      return jsonRpcError(verdict.status, -32001, verdict.message);
    }
    if (verdict?.kind === "absent") return unauthorized();
    if (request.method !== "POST") {
      return jsonRpcError(405, -32000, "Method not allowed: end the sessions with POST", { allow: "POST" });
    }
    await access.endAll();
    await options.redirectFiles?.removeAll();
    // A page's open notification stream would go on telling which Runs change.
    await options.closeMcpSessions();
    logger.log("studio.signed_out", { by: byToken ? "internal-token" : "studio-cookie" });
    const response = Response.json({ signedOut: true }, { headers: NO_STORE_JSON });
    if (!byToken) {
      for (const cookie of endedStudioCookies(port())) response.headers.append("set-cookie", cookie);
    }
    return response;
  }

  /**
   * Consumes the ticket, sets the cookie and answers with the page itself, its tab key in a `<meta>` element
   * (why there: `studio_access.ts`); the page then drops the ticket from the address.
   */
  async function exchange(url: URL): Promise<Response> {
    const ticket = url.searchParams.get("ticket")!;
    const session = await access.redeem(ticket);
    // The browser has read the redirect file by now, if there was one; a used ticket needs it no more.
    await options.redirectFiles?.remove(ticket);
    if (!session) {
      logger.log("studio.refused", { status: 403 });
      return page(
        403,
        "This Studio link is used up",
        "A Studio link opens one browser session within a minute of being made, and this one has been " +
          "used already or has expired. Run `weft studio` again for a new one.",
      );
    }
    logger.log("studio.opened", {});
    const meta = `<meta name="${STUDIO_KEY_META}" content="${await access.tabKey(session)}">`;
    // The page as served everywhere else (linking the content-hashed files), with the key added.
    const [served, first] = await Promise.all([files ??= StudioFiles.load(), firstView()]);
    const index = new TextDecoder().decode(served.at(STUDIO_INDEX)!.body);
    const response = new Response(
      // Replaced by functions: a replacement string would read a Run's `$&` or `` $` `` as a pattern.
      index.replace("</head>", () => `${meta}\n${first.data}</head>`)
        .replace(STUDIO_ROOT, () => `<div id="studio">${first.html}</div>`)
        .replace(
          "<title>weft Studio</title>",
          (title) => first.html ? "<title>Runs · weft Studio</title>" : title,
        ),
      {
        headers: {
          ...STUDIO_SECURITY_HEADERS,
          "content-type": "text/html; charset=utf-8",
          "cache-control": "no-store",
        },
      },
    );
    for (const cookie of studioCookies(port(), session)) response.headers.append("set-cookie", cookie);
    return response;
  }

  /**
   * The first view: its answers as an inert data element (read by the page's script, never run: its type is
   * not a script's, and the policy allows no inline code anyway) and the home view drawn from them as HTML,
   * for the page's root, so the list shows before the script has run. Each is "" when it cannot be had: the
   * page then draws the list itself, or asks through its session as before.
   */
  async function firstView(): Promise<{ data: string; html: string }> {
    if (!options.listRuns) return { data: "", html: "" };
    let answers: FirstAnswer[];
    try {
      answers = await Promise.all(
        FIRST_VIEW_CALLS.map(async (call) => ({ ...call, result: await options.listRuns!(call.arguments) })),
      );
    } catch (error) {
      failed(error);
      return { data: "", html: "" };
    }
    const data = `<script type="application/json" id="${FIRST_VIEW_ELEMENT_ID}">${
      embeddedJson(answers)
    }</script>\n`;
    try {
      return { data, html: firstViewHtml(answers[0].result as RunsPageFields) };
    } catch (error) {
      failed(error);
      return { data, html: "" };
    }
  }

  function failed(error: unknown): void {
    logger.log("studio.first_view_failed", {
      message: error instanceof Error ? error.message : String(error),
    });
  }
}

const NO_STORE_JSON = { "cache-control": "no-store", "x-content-type-options": "nosniff" };

function unauthorized(): Response {
  return jsonRpcError(401, -32001, "Unauthorized: send the internal bearer token", {
    "www-authenticate": 'Bearer realm="weft"',
  });
}

function redirect(status: 308, location: string): Response {
  return new Response(null, {
    status,
    headers: { ...STUDIO_SECURITY_HEADERS, location, "cache-control": "no-store" },
  });
}

/** A short page that says what happened and what to do; static text only, so nothing needs escaping. */
function page(status: number, title: string, message: string, extra: Record<string, string> = {}): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>weft Studio: ${title}</title></head>
<body><main><h1>${title}</h1><p>${message}</p></main></body></html>
`;
  return new Response(html, {
    status,
    headers: {
      ...STUDIO_SECURITY_HEADERS,
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      ...extra,
    },
  });
}
