/**
 * Studio's access, in process against the service's handler: tickets (single use, a minute, only for the
 * internal token, with a 0600 redirect file on request), the session cookie (its flags and paths, the paths
 * that accept it and those that never do, its own origin only, never without the tab key, its expiry,
 * renewal and absolute end, the end of every session), the page's headers, and logs that never hold a
 * ticket, a cookie or a key. The clock is injected, so expiry is tested without waiting.
 */

import assert from "node:assert/strict";
import { createHandler } from "../../src/http/handler.ts";
import { DEFAULT_SESSION_LIMITS, SessionTable } from "../../src/http/sessions.ts";
import {
  SESSION_MAX_MS,
  SESSION_TTL_MS,
  type SessionGenerations,
  StudioAccess,
  TICKET_TTL_MS,
} from "../../src/http/studio_access.ts";
import { STUDIO_SECURITY_HEADERS } from "../../src/http/studio_pages.ts";
import { StudioRedirectFiles } from "../../src/http/studio_redirect.ts";
import { eventually } from "../support/deadline.ts";
import { Server } from "../../src/mcp/sdk.ts";
import { Logger } from "../../src/lib/logger.ts";
import { initializeRequest, mcpHeaders } from "../support/jsonrpc.ts";

const PORT = 41_001;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const EXTERNAL = "e".repeat(43);
const INTERNAL = "i".repeat(43);
const COOKIE = `weft_studio_${PORT}`;
const INITIALIZE = JSON.stringify(initializeRequest("studio-test"));

/** A generation kept as a file would keep it: shared by the handlers of one "project", one after another. */
function keptGenerations(): SessionGenerations & { writes: number } {
  let kept = 0;
  return {
    writes: 0,
    read() {
      return Promise.resolve(kept);
    },
    write(generation) {
      this.writes++;
      kept = generation;
      return Promise.resolve();
    },
  };
}

/**
 * A handler with a clock the test moves, a log in a temporary folder, and bare MCP sessions; `generations`
 * stands for the project's file, so that a second handler with the same one is the service after a restart.
 */
async function studioHandler(
  options: { generations?: SessionGenerations; start?: number; redirectFiles?: StudioRedirectFiles } = {},
) {
  const { generations = keptGenerations(), redirectFiles } = options;
  let now = options.start ?? Date.UTC(2026, 11, 1, 10);
  const logs = await Deno.makeTempDir({ prefix: "weft-studio-logs-" });
  const logger = Logger.open(logs, "inst_test");
  const sessions = new SessionTable(
    DEFAULT_SESSION_LIMITS,
    () => ({ server: new Server({ name: "t", version: "0" }, { capabilities: { tools: {} } }) }),
    Logger.silent(),
  );
  const studio = new StudioAccess(INTERNAL, { now: () => now, generations });
  const handle = createHandler({
    tokens: { external: EXTERNAL, internal: INTERNAL },
    port: () => PORT,
    sessions,
    studio,
    redirectFiles,
    logger,
  });
  return {
    handle,
    studio,
    now: () => now,
    advance: (ms: number) => now += ms,
    log: () => Deno.readTextFile(`${logs}/inst_test.jsonl`),
    close: async () => {
      await redirectFiles?.removeAll();
      await sessions.closeAll();
      logger.close();
      await Deno.remove(logs, { recursive: true });
    },
  };
}

type Handle = (request: Request) => Promise<Response>;

/** A request as a browser or client on this machine sends it: loopback Host plus `headers`. */
function request(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Request(`${ORIGIN}${path}`, {
    method: options.method ?? "GET",
    headers: { host: `127.0.0.1:${PORT}`, ...options.headers },
    body: options.body ?? null,
  });
}

async function mintTicket(handle: Handle): Promise<{ ticket: string; url: string; expiresAt: string }> {
  const response = await handle(
    request("/studio/ticket", { method: "POST", headers: { authorization: `Bearer ${INTERNAL}` } }),
  );
  assert.equal(response.status, 200, "the internal token mints a ticket");
  assert.equal(response.headers.get("cache-control"), "no-store");
  return await response.json();
}

/** What the page a ticket opened holds: the `Cookie` header the browser sends from then on, and the tab key. */
interface Opened {
  cookie: string;
  key: string;
}

/** The tab key in the page a ticket's exchange answered with. */
function tabKeyIn(page: string): string {
  return /<meta name="weft-studio-key" content="([A-Za-z0-9_-]{43})">/.exec(page)?.[1] ??
    assert.fail("the exchanged page holds no tab key");
}

/** Exchanges a fresh ticket as the browser does; returns the cookie and the tab key of the page. */
async function openStudio(handle: Handle): Promise<Opened> {
  const { ticket } = await mintTicket(handle);
  const response = await handle(request(`/studio/?ticket=${ticket}`));
  assert.equal(response.status, 200);
  const key = tabKeyIn(await response.text());
  const value = /=([^;]+)/.exec(response.headers.getSetCookie()[0])![1];
  return { cookie: `${COOKIE}=${value}`, key };
}

/**
 * An MCP initialize on `path` as the Studio page sends it: the cookie, the page's own Origin and its tab key
 * (`headers` may change or remove it).
 */
function pageInitialize(path: string, opened: Opened, headers: Record<string, string> = {}): Request {
  const sent = {
    ...mcpHeaders(undefined),
    cookie: opened.cookie,
    origin: ORIGIN,
    ...tabKey(opened),
    ...headers,
  };
  return request(path, {
    method: "POST",
    headers: Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== "")),
    body: INITIALIZE,
  });
}

function tabKey(opened: Opened): Record<string, string> {
  return { "weft-studio-key": opened.key };
}

async function statusOf(response: Promise<Response>): Promise<number> {
  const answered = await response;
  await answered.body?.cancel();
  return answered.status;
}

Deno.test("studio: only the internal token mints a ticket, by POST; the answer is a Studio address on loopback", async () => {
  const { handle, close } = await studioHandler();
  try {
    const minted = await mintTicket(handle);
    assert.equal(minted.url, `${ORIGIN}/studio/?ticket=${minted.ticket}`);
    assert.match(minted.ticket, /^[A-Za-z0-9_-]{43}$/);
    for (const authorization of [undefined, `Bearer ${EXTERNAL}`, `Bearer ${INTERNAL}x`]) {
      const headers: Record<string, string> = authorization ? { authorization } : {};
      assert.equal(await statusOf(handle(request("/studio/ticket", { method: "POST", headers }))), 401);
    }
    const opened = await openStudio(handle);
    const byCookie = request("/studio/ticket", {
      method: "POST",
      headers: { cookie: opened.cookie, origin: ORIGIN, ...tabKey(opened) },
    });
    assert.equal(await statusOf(handle(byCookie)), 401, "a Studio page cannot mint tickets");
    const get = request("/studio/ticket", { headers: { authorization: `Bearer ${INTERNAL}` } });
    assert.equal(await statusOf(handle(get)), 405);
  } finally {
    await close();
  }
});

Deno.test("studio: a ticket sets an HttpOnly, SameSite=Strict cookie per Studio path and answers with the page and its tab key; it works once", async () => {
  const { handle, close } = await studioHandler();
  try {
    const { ticket } = await mintTicket(handle);
    const exchanged = await handle(request(`/studio/?ticket=${ticket}`));
    assert.equal(exchanged.status, 200);
    const page = await exchanged.text();
    assert.match(
      page,
      /<script type="module" src="\/studio\/loader\.[A-Za-z0-9_-]{12}\.js"><\/script>/,
      "the page itself, linking the content-hashed first script as everywhere else",
    );
    assert.match(page, /<meta name="weft-studio-program" content="\/studio\/studio\.[A-Za-z0-9_-]{12}\.js">/);
    const key = tabKeyIn(page);
    assert.ok(!page.includes(ticket), "the page does not repeat the ticket");
    assert.equal(exchanged.headers.get("cache-control"), "no-store");
    assert.equal(exchanged.headers.get("cross-origin-resource-policy"), "same-origin");
    assert.equal(exchanged.headers.get("referrer-policy"), "no-referrer");
    const cookies = exchanged.headers.getSetCookie();
    assert.deepEqual(cookies.map((cookie) => /Path=([^;]+)/.exec(cookie)![1]), [
      "/studio",
      "/internal/mcp/studio",
    ]);
    for (const cookie of cookies) {
      const [pair, ...flags] = cookie.split(";").map((part) => part.trim());
      assert.ok(pair.startsWith(`${COOKIE}=`), cookie);
      assert.ok(!pair.includes(ticket), "the cookie is not the ticket");
      assert.ok(!pair.includes(key), "the cookie does not carry the tab key");
      assert.ok(flags.includes("HttpOnly"), cookie);
      assert.ok(flags.includes("SameSite=Strict"), cookie);
      assert.ok(!flags.some((flag) => /^(Domain|Max-Age|Expires)=/i.test(flag)), cookie);
    }

    const again = await handle(request(`/studio/?ticket=${ticket}`));
    assert.equal(again.status, 403, "a ticket opens one session");
    assert.equal(again.headers.get("set-cookie"), null);
    assert.match(await again.text(), /used already or has expired.*weft studio/s);
    const forged = await handle(request(`/studio/?ticket=${"x".repeat(43)}`));
    assert.equal(forged.status, 403);
    await forged.body?.cancel();
  } finally {
    await close();
  }
});

Deno.test("studio: a ticket expires after a minute", async () => {
  const { handle, advance, close } = await studioHandler();
  try {
    const late = await mintTicket(handle);
    const inTime = await mintTicket(handle);
    advance(TICKET_TTL_MS - 1);
    assert.equal(await statusOf(handle(request(`/studio/?ticket=${inTime.ticket}`))), 200);
    advance(1);
    const expired = await handle(request(`/studio/?ticket=${late.ticket}`));
    assert.equal(expired.status, 403);
    assert.match(await expired.text(), /expired/);
  } finally {
    await close();
  }
});

Deno.test("studio: the cookie opens the page and its files under a strict policy; without it the page says how to open Studio", async () => {
  const { handle, close } = await studioHandler();
  try {
    const closed = await handle(request("/studio/"));
    assert.equal(closed.status, 401);
    assert.match(await closed.text(), /weft studio/);
    assert.equal(
      closed.headers.get("content-security-policy"),
      STUDIO_SECURITY_HEADERS["content-security-policy"],
    );

    const opened = await openStudio(handle);
    const { cookie } = opened;
    const page = await handle(request("/studio/", { headers: { cookie, "sec-fetch-site": "none" } }));
    assert.equal(page.status, 200);
    const html = await page.text();
    // The page's first script loads its program, which the page names (and prefetches) by a content-hashed name.
    assert.match(html, /<script type="module" src="\/studio\/loader\.[A-Za-z0-9_-]{12}\.js"><\/script>/);
    const scriptPath = /<meta name="weft-studio-program" content="(\/studio\/studio\.[A-Za-z0-9_-]{12}\.js)">/
      .exec(html)?.[1];
    assert.ok(scriptPath, `the page names its program by a content-hashed name: ${html}`);
    assert.ok(
      html.includes(`<link rel="prefetch" href="${scriptPath}">`),
      "and has the browser fetch it early",
    );
    assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(page.headers.get("cache-control"), "no-store");
    const policy = page.headers.get("content-security-policy")!;
    assert.match(policy, /default-src 'self'/);
    assert.match(policy, /frame-ancestors 'none'/);
    assert.ok(!policy.includes("unsafe-inline") && !policy.includes("unsafe-eval"), policy);
    assert.equal(page.headers.get("x-frame-options"), "DENY");
    assert.equal(page.headers.get("x-content-type-options"), "nosniff");
    assert.equal(page.headers.get("referrer-policy"), "no-referrer");

    const script = await handle(
      request("/studio/studio.js", { headers: { cookie, "sec-fetch-site": "same-origin" } }),
    );
    assert.equal(script.status, 200);
    assert.equal(script.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.equal(script.headers.get("cache-control"), "private, no-cache");
    const etag = script.headers.get("etag")!;
    await script.body?.cancel();
    const revalidated = await handle(
      request("/studio/studio.js", { headers: { cookie, "if-none-match": etag } }),
    );
    assert.equal(revalidated.status, 304);

    // At its hashed name the script never changes: cached for good, and compressed for a browser that asks.
    const hashed = await handle(
      request(scriptPath, { headers: { cookie, "accept-encoding": "gzip, deflate, br" } }),
    );
    assert.equal(hashed.status, 200);
    assert.equal(hashed.headers.get("cache-control"), "private, max-age=31536000, immutable");
    assert.equal(hashed.headers.get("content-encoding"), "gzip");
    assert.equal(hashed.headers.get("vary"), "accept-encoding");
    const compressed = new Uint8Array(await hashed.arrayBuffer());
    const plain = await handle(request(scriptPath, { headers: { cookie, "accept-encoding": "gzip;q=0" } }));
    assert.equal(plain.headers.get("content-encoding"), null, "gzip;q=0 refuses gzip");
    const original = await plain.text();
    assert.ok(compressed.length < original.length / 2, `${compressed.length} of ${original.length} bytes`);
    const unzipped = new Blob([compressed]).stream().pipeThrough(new DecompressionStream("gzip"));
    assert.equal(await new Response(unzipped).text(), original, "the compressed bytes are the same script");
    assert.notEqual(
      hashed.headers.get("etag"),
      plain.headers.get("etag"),
      "each encoding has its own validator",
    );
    const gzipRevalidated = await handle(
      request(scriptPath, {
        headers: { cookie, "accept-encoding": "gzip", "if-none-match": hashed.headers.get("etag")! },
      }),
    );
    assert.equal(gzipRevalidated.status, 304);

    const deepLink = await handle(request("/studio/runs/run_1", { headers: { cookie } }));
    assert.equal(deepLink.status, 200, "the page's own routes are the page");
    assert.match(await deepLink.text(), /weft Studio/);
    assert.equal(await statusOf(handle(request("/studio/missing.js", { headers: { cookie } }))), 404);
    const bare = await handle(request("/studio?ticket=t"));
    assert.equal(bare.status, 308);
    assert.equal(bare.headers.get("location"), "/studio/?ticket=t");
    assert.equal(await statusOf(handle(request("/studio/", { method: "POST", headers: { cookie } }))), 405);
    const byToken = request("/studio/", { headers: { authorization: `Bearer ${INTERNAL}` } });
    assert.equal(await statusOf(handle(byToken)), 200, "the internal token opens the page too");
  } finally {
    await close();
  }
});

Deno.test("studio: the cookie opens /internal/mcp/studio from the page's own origin, and nothing else", async () => {
  const { handle, close } = await studioHandler();
  try {
    const opened = await openStudio(handle);
    assert.equal(await statusOf(handle(pageInitialize("/internal/mcp/studio", opened))), 200);
    for (const path of ["/mcp", "/mcp/codex", "/internal/mcp"]) {
      const response = await handle(pageInitialize(path, opened));
      assert.equal(response.status, 401, `the cookie is refused on ${path}`);
      assert.match((await response.json()).error.message, /bearer token/);
    }
    // The Host checks apply to the cookie's requests like to any other.
    const rebound = pageInitialize("/internal/mcp/studio", opened, { host: `evil.example:${PORT}` });
    assert.equal(await statusOf(handle(rebound)), 403);
    // A bearer client next to the page keeps working, and is judged by its token alone.
    const bearer = request("/internal/mcp/studio", {
      method: "POST",
      headers: { ...mcpHeaders(INTERNAL), cookie: `${COOKIE}=forged` },
      body: INITIALIZE,
    });
    assert.equal(await statusOf(handle(bearer)), 200);
  } finally {
    await close();
  }
});

Deno.test("studio: with the cookie, a foreign Origin, a POST without Origin and a cross-site GET are refused", async () => {
  const { handle, close } = await studioHandler();
  try {
    const opened = await openStudio(handle);
    const { cookie } = opened;
    for (const origin of ["https://evil.example", "null", `http://127.0.0.1:${PORT + 1}`]) {
      const response = await handle(pageInitialize("/internal/mcp/studio", opened, { origin }));
      assert.equal(response.status, 403, origin);
      assert.match((await response.json()).error.message, /Studio page itself/);
    }
    const noOrigin = request("/internal/mcp/studio", {
      method: "POST",
      headers: { ...mcpHeaders(undefined), cookie },
      body: INITIALIZE,
    });
    assert.equal(await statusOf(handle(noOrigin)), 403, "a POST must say where it comes from");
    for (const site of ["cross-site", "same-site"]) {
      const stream = request("/internal/mcp/studio", {
        headers: { ...mcpHeaders(undefined), accept: "text/event-stream", cookie, "sec-fetch-site": site },
      });
      assert.equal(await statusOf(handle(stream)), 403, `a GET started by a ${site} page`);
      const page = request("/studio/", { headers: { cookie, "sec-fetch-site": site } });
      assert.equal(await statusOf(handle(page)), 403, `the page opened from a ${site} page`);
    }
    const crossPost = request("/studio/", {
      method: "POST",
      headers: { cookie, origin: "https://evil.example" },
    });
    assert.equal(await statusOf(handle(crossPost)), 403);
  } finally {
    await close();
  }
});

Deno.test("studio: the SDK transport's requests as a browser sends them pass: POST with Origin, the stream's GET with only Sec-Fetch-Site, DELETE with Origin", async () => {
  const { handle, close } = await studioHandler();
  try {
    const opened = await openStudio(handle);
    const { cookie } = opened;
    const initialized = await handle(
      pageInitialize("/internal/mcp/studio", opened, { "sec-fetch-site": "same-origin" }),
    );
    await initialized.body?.cancel();
    assert.equal(initialized.status, 200);
    const session = initialized.headers.get("mcp-session-id")!;
    const ours = { ...mcpHeaders(undefined), cookie, ...tabKey(opened), "mcp-session-id": session };
    // A browser leaves Origin off a same-origin GET; Sec-Fetch-Site says who started it.
    const stream = (site: string) =>
      request("/internal/mcp/studio", {
        headers: { ...ours, accept: "text/event-stream", "sec-fetch-site": site },
      });
    assert.equal(await statusOf(handle(stream("cross-site"))), 403, "a cross-site GET is refused");
    assert.equal(await statusOf(handle(stream("same-site"))), 403, "a same-site (other port) GET is refused");
    assert.equal(await statusOf(handle(stream("same-origin"))), 200, "the page's own notification stream");
    const end = (origin: string) =>
      request("/internal/mcp/studio", {
        method: "DELETE",
        headers: { ...ours, origin, "sec-fetch-site": origin === ORIGIN ? "same-origin" : "cross-site" },
      });
    assert.equal(await statusOf(handle(end("https://evil.example"))), 403, "a foreign DELETE is refused");
    assert.equal(await statusOf(handle(end(ORIGIN))), 200, "the page closes its own session");
  } finally {
    await close();
  }
});

Deno.test("studio: a session ends 12 hours after its last renewal; one in use is renewed past half its time; a forged one is refused", async () => {
  const { handle, advance, now, close } = await studioHandler();
  try {
    const opened = await openStudio(handle);
    const { cookie } = opened;
    advance(SESSION_TTL_MS / 2 - 1000);
    const early = await handle(request("/studio/", { headers: { cookie } }));
    await early.body?.cancel();
    assert.deepEqual(early.headers.getSetCookie(), [], "nothing to renew yet");
    advance(2000);
    const renewing = await handle(pageInitialize("/internal/mcp/studio", opened));
    await renewing.body?.cancel();
    assert.equal(renewing.status, 200);
    const renewed = renewing.headers.getSetCookie();
    assert.equal(renewed.length, 2, "both paths get the renewed session");
    const fresh = `${COOKIE}=${/=([^;]+)/.exec(renewed[0])![1]}`;

    advance(SESSION_TTL_MS / 2);
    const ended = await handle(request("/studio/", { headers: { cookie } }));
    assert.equal(ended.status, 401);
    assert.match(await ended.text(), /session has ended/);
    const endedMcp = await handle(pageInitialize("/internal/mcp/studio", opened));
    assert.equal(endedMcp.status, 401);
    assert.match((await endedMcp.json()).error.message, /open Studio again with `weft studio`/);
    assert.equal(await statusOf(handle(request("/studio/", { headers: { cookie: fresh } }))), 200);

    const [name, value] = fresh.split("=");
    const parts = value.split(".");
    const moved = (index: number, by: number) =>
      `${name}=${parts.map((part, at) => at === index ? String(Number(part) + by) : part).join(".")}`;
    const forgeries = [
      moved(2, SESSION_MAX_MS), // opened later than it was
      moved(3, SESSION_TTL_MS), // ending later than signed
      moved(4, 1), // signed for another generation
      `${name}=${value}x`,
      `${name}=s1.a.1.b`,
      `${name}=`,
    ];
    for (const forged of forgeries) {
      assert.equal(await statusOf(handle(request("/studio/", { headers: { cookie: forged } }))), 401, forged);
    }
    const otherProject = new StudioAccess("o".repeat(43), { now: () => now() });
    const { ticket } = otherProject.issueTicket();
    const foreign = (await otherProject.redeem(ticket))!;
    const foreignCookie = `${name}=${foreign.value}`;
    assert.equal(await statusOf(handle(request("/studio/", { headers: { cookie: foreignCookie } }))), 401);
  } finally {
    await close();
  }
});

Deno.test("studio: tickets, cookie values and tab keys never reach the log", async () => {
  const { handle, log, close } = await studioHandler();
  try {
    const { ticket } = await mintTicket(handle);
    const exchanged = await handle(request(`/studio/?ticket=${ticket}`));
    const key = tabKeyIn(await exchanged.text());
    const session = /=([^;]+)/.exec(exchanged.headers.getSetCookie()[0])![1];
    const cookie = `${COOKIE}=${session}`;
    const opened = { cookie, key };
    await statusOf(handle(request(`/studio/?ticket=${ticket}`)));
    await statusOf(handle(request("/studio/", { headers: { cookie } })));
    await statusOf(handle(pageInitialize("/internal/mcp/studio", opened)));
    await statusOf(
      handle(pageInitialize("/internal/mcp/studio", opened, { origin: "https://evil.example" })),
    );
    const text = await log();
    assert.match(text, /"event":"studio.ticket"/);
    assert.match(text, /"event":"studio.opened"/);
    assert.match(text, /"event":"studio.refused"/);
    await statusOf(handle(pageInitialize("/internal/mcp/studio", opened, { "weft-studio-key": "wrong" })));
    for (const secret of [ticket, key, session, session.split(".")[1], session.split(".")[5]]) {
      assert.ok(!text.includes(secret), "a Studio secret in the log");
    }
  } finally {
    await close();
  }
});

/** The cookie of the renewal `response` carries, or `cookie` when it renewed nothing. */
async function renewedCookie(response: Response, cookie: string): Promise<string> {
  await response.body?.cancel();
  const renewed = response.headers.getSetCookie()[0];
  return renewed ? `${COOKIE}=${/=([^;]+)/.exec(renewed)![1]}` : cookie;
}

Deno.test("studio: a session ends 24 hours after it was opened, however often it was renewed", async () => {
  const { handle, advance, close } = await studioHandler();
  try {
    const opened = await openStudio(handle);
    let current = opened;
    // In use every 7 hours: renewed at 7 h and at 14 h, each time for 12 more hours but never past 24 h.
    for (let hour = 7; hour < 24; hour += 7) {
      advance(7 * 60 * 60 * 1000);
      const answer = await handle(pageInitialize("/internal/mcp/studio", current));
      assert.equal(answer.status, 200, `in use at ${hour} h`);
      current = { ...current, cookie: await renewedCookie(answer, current.cookie) };
    }
    assert.notEqual(current.cookie, opened.cookie, "the session was renewed");
    advance(SESSION_MAX_MS - 21 * 60 * 60 * 1000 - 1);
    assert.equal(
      await statusOf(handle(pageInitialize("/internal/mcp/studio", current))),
      200,
      "24 h less 1 ms",
    );
    advance(1);
    const ended = await handle(pageInitialize("/internal/mcp/studio", current));
    assert.equal(ended.status, 401, "24 h after it was opened, renewed or not");
    assert.match((await ended.json()).error.message, /session has ended/);
    assert.equal(await statusOf(handle(request("/studio/", { headers: { cookie: current.cookie } }))), 401);
  } finally {
    await close();
  }
});

Deno.test("studio: the cookie never authorizes the endpoint without its tab key: none, a wrong one or another session's is 401", async () => {
  const { handle, close } = await studioHandler();
  try {
    const opened = await openStudio(handle);
    const other = await openStudio(handle);
    assert.notEqual(opened.key, other.key, "each session has its own key");
    const cases: [string, Record<string, string>][] = [
      ["no key", { "weft-studio-key": "" }],
      ["a wrong key", { "weft-studio-key": "x".repeat(43) }],
      ["a key one character short", { "weft-studio-key": opened.key.slice(0, -1) }],
      ["another session's key", tabKey(other)],
    ];
    for (const [what, headers] of cases) {
      const refused = await handle(pageInitialize("/internal/mcp/studio", opened, headers));
      assert.equal(refused.status, 401, what);
      assert.match((await refused.json()).error.message, /lacks its Studio tab's key/, what);
    }
    // The stream's GET and the closing DELETE are judged the same way.
    const initialized = await handle(pageInitialize("/internal/mcp/studio", opened));
    await initialized.body?.cancel();
    assert.equal(initialized.status, 200, "the cookie with its own key");
    const session = initialized.headers.get("mcp-session-id")!;
    for (const method of ["GET", "DELETE"]) {
      const keyless = request("/internal/mcp/studio", {
        method,
        headers: {
          ...mcpHeaders(undefined),
          accept: "text/event-stream",
          cookie: opened.cookie,
          origin: ORIGIN,
          "mcp-session-id": session,
        },
      });
      assert.equal(await statusOf(handle(keyless)), 401, `${method} without the key`);
    }
  } finally {
    await close();
  }
});

Deno.test("studio: ending every session refuses every cookie, ticket and key, also after a restart; new sessions open", async () => {
  const generations = keptGenerations();
  const first = await studioHandler({ generations });
  let second: Awaited<ReturnType<typeof studioHandler>> | undefined;
  try {
    const one = await openStudio(first.handle);
    const two = await openStudio(first.handle);
    const unused = await mintTicket(first.handle);
    // The page's own button: its cookie with its key, from its own origin. The cookie alone ends nothing.
    const signOut = (opened: Opened, headers: Record<string, string> = tabKey(opened)) =>
      first.handle(
        request("/studio/sign-out", {
          method: "POST",
          headers: { cookie: opened.cookie, origin: ORIGIN, ...headers },
        }),
      );
    assert.equal(await statusOf(signOut(one, {})), 401, "the cookie without its key ends nothing");
    assert.equal(
      await statusOf(signOut(one, { origin: "http://127.0.0.1:1" })),
      403,
      "another origin ends nothing",
    );
    assert.equal(generations.writes, 0);
    const live = await first.handle(pageInitialize("/internal/mcp/studio", two));
    await live.body?.cancel();
    assert.equal(live.status, 200);
    const mcpSession = live.headers.get("mcp-session-id")!;

    const ended = await signOut(one);
    assert.equal(ended.status, 200);
    assert.deepEqual(await ended.json(), { signedOut: true });
    assert.ok(
      ended.headers.getSetCookie().every((cookie) => /Max-Age=0/.test(cookie)),
      "the cookie is dropped",
    );
    assert.equal(generations.writes, 1, "kept before it took effect");
    for (const [what, opened] of [["the signing-out session", one], ["another session", two]] as const) {
      assert.equal(await statusOf(first.handle(pageInitialize("/internal/mcp/studio", opened))), 401, what);
      const page = request("/studio/", { headers: { cookie: opened.cookie } });
      assert.equal(await statusOf(first.handle(page)), 401, what);
    }
    assert.equal(
      await statusOf(first.handle(request(`/studio/?ticket=${unused.ticket}`))),
      403,
      "a ticket too",
    );
    const stillOpen = request("/internal/mcp/studio", {
      method: "POST",
      headers: { ...mcpHeaders(INTERNAL), "mcp-session-id": mcpSession },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
    });
    assert.equal(await statusOf(first.handle(stillOpen)), 404, "the pages' MCP sessions are closed too");

    // The internal token (`weft studio --sign-out-all`) ends them as well.
    const three = await openStudio(first.handle);
    const byToken = request("/studio/sign-out", {
      method: "POST",
      headers: { authorization: `Bearer ${INTERNAL}` },
    });
    assert.equal(await statusOf(first.handle(byToken)), 200);
    assert.equal(await statusOf(first.handle(pageInitialize("/internal/mcp/studio", three))), 401);
    const byExternal = request("/studio/sign-out", {
      method: "POST",
      headers: { authorization: `Bearer ${EXTERNAL}` },
    });
    assert.equal(await statusOf(first.handle(byExternal)), 401, "the IDE's token ends nothing");

    // The service restarts: the kept generation still refuses the old sessions; a new one opens.
    second = await studioHandler({ generations, start: first.now() });
    for (const opened of [one, two, three]) {
      assert.equal(await statusOf(second.handle(pageInitialize("/internal/mcp/studio", opened))), 401);
    }
    const fresh = await openStudio(second.handle);
    assert.equal(await statusOf(second.handle(pageInitialize("/internal/mcp/studio", fresh))), 200);
  } finally {
    await first.close();
    await second?.close();
  }
});

Deno.test("studio: a session survives a restart of the service: the same cookie and key open the endpoint", async () => {
  const generations = keptGenerations();
  const first = await studioHandler({ generations });
  const opened = await openStudio(first.handle);
  await first.close();
  const second = await studioHandler({ generations, start: first.now() });
  try {
    assert.equal(await statusOf(second.handle(pageInitialize("/internal/mcp/studio", opened))), 200);
  } finally {
    await second.close();
  }
});

Deno.test("studio: a ticket's redirect file is new, 0600, opens the address, and goes once used, ended or expired", async () => {
  const folder = await Deno.makeTempDir({ prefix: "weft-studio-redirect-" });
  const leftover = `${folder}/studio-open-leftover.html`;
  await Deno.writeTextFile(leftover, "a killed service's");
  await Deno.writeTextFile(`${folder}/connection.json`, "{}");
  const redirectFiles = new StudioRedirectFiles(folder, 200);
  await redirectFiles.removeAll();
  const { handle, close } = await studioHandler({ redirectFiles });
  const mintWithFile = async () => {
    const response = await handle(
      request("/studio/ticket?redirectFile=true", {
        method: "POST",
        headers: { authorization: `Bearer ${INTERNAL}` },
      }),
    );
    assert.equal(response.status, 200);
    const minted = await response.json();
    const path = new URL(minted.redirectFile).pathname;
    return { ...minted, path };
  };
  try {
    assert.equal(await Deno.stat(leftover).catch(() => null), null, "a killed service's file is removed");
    assert.ok(await Deno.stat(`${folder}/connection.json`), "nothing else is touched");

    const used = await mintWithFile();
    assert.match(used.redirectFile, /^file:\/\/\/.*\/studio-open-[A-Za-z0-9_-]+\.html$/);
    assert.equal(used.path.slice(0, used.path.lastIndexOf("/")), folder);
    assert.equal((await Deno.stat(used.path)).mode! & 0o777, 0o600);
    const page = await Deno.readTextFile(used.path);
    assert.ok(page.includes(`<meta http-equiv="refresh" content="0;url=${used.url}">`), page);
    assert.equal(await statusOf(handle(request(`/studio/?ticket=${used.ticket}`))), 200);
    assert.equal(await Deno.stat(used.path).catch(() => null), null, "the used ticket's file is gone");

    const unused = await mintWithFile();
    await eventually(
      "an unused ticket's file to go after its lifetime",
      async () => (await Deno.stat(unused.path).catch(() => null)) === null || undefined,
    );

    const ended = await mintWithFile();
    const byToken = { method: "POST", headers: { authorization: `Bearer ${INTERNAL}` } };
    assert.equal(await statusOf(handle(request("/studio/sign-out", byToken))), 200);
    assert.equal(await Deno.stat(ended.path).catch(() => null), null, "signing out removed the file");
  } finally {
    await close();
    await Deno.remove(folder, { recursive: true });
  }
});
