/**
 * Studio's access, in process against the service's handler: tickets (single use, a minute, only for the
 * internal token), the session cookie (its flags and paths, the paths that accept it and those that never
 * do, its own origin only, its expiry and renewal), the page's headers, and logs that never hold a ticket or
 * a cookie. The clock is injected, so expiry is tested without waiting.
 */

import assert from "node:assert/strict";
import { createHandler } from "../../src/http/handler.ts";
import { DEFAULT_SESSION_LIMITS, SessionTable } from "../../src/http/sessions.ts";
import { SESSION_TTL_MS, StudioAccess, TICKET_TTL_MS } from "../../src/http/studio_access.ts";
import { STUDIO_SECURITY_HEADERS } from "../../src/http/studio_pages.ts";
import { Server } from "../../src/mcp/sdk.ts";
import { Logger } from "../../src/lib/logger.ts";
import { initializeRequest, mcpHeaders } from "../support/jsonrpc.ts";

const PORT = 41_001;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const EXTERNAL = "e".repeat(43);
const INTERNAL = "i".repeat(43);
const COOKIE = `weft_studio_${PORT}`;
const INITIALIZE = JSON.stringify(initializeRequest("studio-test"));

/** A handler with a clock the test moves, a log in a temporary folder, and bare MCP sessions. */
async function studioHandler() {
  let now = Date.UTC(2026, 11, 1, 10);
  const logs = await Deno.makeTempDir({ prefix: "weft-studio-logs-" });
  const logger = Logger.open(logs, "inst_test");
  const sessions = new SessionTable(
    DEFAULT_SESSION_LIMITS,
    () => ({ server: new Server({ name: "t", version: "0" }, { capabilities: { tools: {} } }) }),
    Logger.silent(),
  );
  const studio = new StudioAccess(INTERNAL, () => now);
  const handle = createHandler({
    tokens: { external: EXTERNAL, internal: INTERNAL },
    port: () => PORT,
    sessions,
    studio,
    logger,
  });
  return {
    handle,
    studio,
    advance: (ms: number) => now += ms,
    log: () => Deno.readTextFile(`${logs}/inst_test.jsonl`),
    close: async () => {
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

/** Exchanges a fresh ticket and returns the `Cookie` header the browser would send from then on. */
async function openStudio(handle: Handle): Promise<string> {
  const { ticket } = await mintTicket(handle);
  const response = await handle(request(`/studio/?ticket=${ticket}`));
  await response.body?.cancel();
  assert.equal(response.status, 303);
  const value = /=([^;]+)/.exec(response.headers.getSetCookie()[0])![1];
  return `${COOKIE}=${value}`;
}

/** An MCP initialize on `path` as the Studio page sends it: the cookie and the page's own Origin. */
function pageInitialize(path: string, cookie: string, headers: Record<string, string> = {}): Request {
  return request(path, {
    method: "POST",
    headers: { ...mcpHeaders(undefined), cookie, origin: ORIGIN, ...headers },
    body: INITIALIZE,
  });
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
    const cookie = await openStudio(handle);
    const byCookie = request("/studio/ticket", { method: "POST", headers: { cookie, origin: ORIGIN } });
    assert.equal(await statusOf(handle(byCookie)), 401, "a Studio page cannot mint tickets");
    const get = request("/studio/ticket", { headers: { authorization: `Bearer ${INTERNAL}` } });
    assert.equal(await statusOf(handle(get)), 405);
  } finally {
    await close();
  }
});

Deno.test("studio: a ticket sets an HttpOnly, SameSite=Strict cookie per Studio path and leaves the address; it works once", async () => {
  const { handle, close } = await studioHandler();
  try {
    const { ticket } = await mintTicket(handle);
    const exchanged = await handle(request(`/studio/?ticket=${ticket}&view=waiting`));
    await exchanged.body?.cancel();
    assert.equal(exchanged.status, 303);
    assert.equal(exchanged.headers.get("location"), "/studio/?view=waiting", "the ticket leaves the address");
    assert.equal(exchanged.headers.get("cache-control"), "no-store");
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
    assert.equal(await statusOf(handle(request(`/studio/?ticket=${inTime.ticket}`))), 303);
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

    const cookie = await openStudio(handle);
    const page = await handle(request("/studio/", { headers: { cookie, "sec-fetch-site": "none" } }));
    assert.equal(page.status, 200);
    const html = await page.text();
    const scriptPath = /<script type="module" src="(\/studio\/studio\.[A-Za-z0-9_-]{12}\.js)"><\/script>/
      .exec(html)?.[1];
    assert.ok(scriptPath, `the page links its script by a content-hashed name: ${html}`);
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
    const cookie = await openStudio(handle);
    assert.equal(await statusOf(handle(pageInitialize("/internal/mcp/studio", cookie))), 200);
    for (const path of ["/mcp", "/mcp/codex", "/internal/mcp"]) {
      const response = await handle(pageInitialize(path, cookie));
      assert.equal(response.status, 401, `the cookie is refused on ${path}`);
      assert.match((await response.json()).error.message, /bearer token/);
    }
    // The Host checks apply to the cookie's requests like to any other.
    const rebound = pageInitialize("/internal/mcp/studio", cookie, { host: `evil.example:${PORT}` });
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
    const cookie = await openStudio(handle);
    for (const origin of ["https://evil.example", "null", `http://127.0.0.1:${PORT + 1}`]) {
      const response = await handle(pageInitialize("/internal/mcp/studio", cookie, { origin }));
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
    const cookie = await openStudio(handle);
    const opened = await handle(
      pageInitialize("/internal/mcp/studio", cookie, { "sec-fetch-site": "same-origin" }),
    );
    await opened.body?.cancel();
    assert.equal(opened.status, 200);
    const session = opened.headers.get("mcp-session-id")!;
    const ours = { ...mcpHeaders(undefined), cookie, "mcp-session-id": session };
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
  const { handle, advance, close } = await studioHandler();
  try {
    const cookie = await openStudio(handle);
    advance(SESSION_TTL_MS / 2 - 1000);
    const early = await handle(request("/studio/", { headers: { cookie } }));
    await early.body?.cancel();
    assert.deepEqual(early.headers.getSetCookie(), [], "nothing to renew yet");
    advance(2000);
    const renewing = await handle(pageInitialize("/internal/mcp/studio", cookie));
    await renewing.body?.cancel();
    assert.equal(renewing.status, 200);
    const renewed = renewing.headers.getSetCookie();
    assert.equal(renewed.length, 2, "both paths get the renewed session");
    const fresh = `${COOKIE}=${/=([^;]+)/.exec(renewed[0])![1]}`;

    advance(SESSION_TTL_MS / 2);
    const ended = await handle(request("/studio/", { headers: { cookie } }));
    assert.equal(ended.status, 401);
    assert.match(await ended.text(), /session has ended/);
    const endedMcp = await handle(pageInitialize("/internal/mcp/studio", cookie));
    assert.equal(endedMcp.status, 401);
    assert.match((await endedMcp.json()).error.message, /open Studio again with `weft studio`/);
    assert.equal(await statusOf(handle(request("/studio/", { headers: { cookie: fresh } }))), 200);

    const [name, value] = fresh.split("=");
    const parts = value.split(".");
    const later = [parts[0], parts[1], String(Number(parts[2]) + SESSION_TTL_MS), parts[3]].join(".");
    for (const forged of [`${name}=${later}`, `${name}=${value}x`, `${name}=s1.a.1.b`, `${name}=`]) {
      assert.equal(await statusOf(handle(request("/studio/", { headers: { cookie: forged } }))), 401, forged);
    }
    const otherProject = new StudioAccess("o".repeat(43));
    const { ticket } = otherProject.issueTicket();
    const foreign = (await otherProject.redeem(ticket))!;
    const foreignCookie = `${name}=${foreign.value}`;
    assert.equal(await statusOf(handle(request("/studio/", { headers: { cookie: foreignCookie } }))), 401);
  } finally {
    await close();
  }
});

Deno.test("studio: tickets and cookie values never reach the log", async () => {
  const { handle, log, close } = await studioHandler();
  try {
    const { ticket } = await mintTicket(handle);
    const exchanged = await handle(request(`/studio/?ticket=${ticket}`));
    await exchanged.body?.cancel();
    const session = /=([^;]+)/.exec(exchanged.headers.getSetCookie()[0])![1];
    const cookie = `${COOKIE}=${session}`;
    await statusOf(handle(request(`/studio/?ticket=${ticket}`)));
    await statusOf(handle(request("/studio/", { headers: { cookie } })));
    await statusOf(handle(pageInitialize("/internal/mcp/studio", cookie)));
    await statusOf(
      handle(pageInitialize("/internal/mcp/studio", cookie, { origin: "https://evil.example" })),
    );
    const text = await log();
    assert.match(text, /"event":"studio.ticket"/);
    assert.match(text, /"event":"studio.opened"/);
    assert.match(text, /"event":"studio.refused"/);
    for (const secret of [ticket, session, session.split(".")[1], session.split(".")[3]]) {
      assert.ok(!text.includes(secret), "a Studio secret in the log");
    }
  } finally {
    await close();
  }
});
