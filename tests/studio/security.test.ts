/**
 * Studio's access in a real browser (Chromium): a ticket opens one session and leaves the address bar, the
 * cookie's flags and paths as the browser stores them, the cookie never sent to or accepted by the other
 * endpoints, a page of another origin (another loopback port: the same site to a browser, so the cookie goes
 * along) refused by its Origin, another loopback server that receives the cookie unable to use it (the tab
 * key stays in Studio's own tab), no framing, and neither ticket, cookie nor key in the service's files.
 */

import assert from "node:assert/strict";
import type { BrowserContext, Page } from "./support.ts";
import { serviceFiles, withServedProject } from "../support/service.ts";
import { initializeRequest, PROTOCOL_VERSION } from "../support/jsonrpc.ts";
import {
  browserSteps,
  type Exchange,
  foreignOrigin,
  networkRecord,
  newPerson,
  openStudio,
  type PageGlobals,
  shown,
  withBrowser,
} from "./support.ts";

const INITIALIZE = JSON.stringify(initializeRequest("studio-browser-test"));

/** An MCP initialize POSTed by the page's own script with its tab key, as the Studio page does. */
function postInitialize(page: Page, path: string): Promise<number> {
  return page.evaluate(async ([path, body, version]) => {
    const { sessionStorage } = globalThis as unknown as PageGlobals;
    const response = await fetch(path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": version,
        "weft-studio-key": sessionStorage["weft-studio-key"] ?? "",
      },
      body,
    });
    await response.body?.cancel();
    return response.status;
  }, [path, INITIALIZE, PROTOCOL_VERSION]);
}

Deno.test({
  name: "studio in a browser: tickets, the cookie's flags and paths, foreign origins refused, nothing logged",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: (t) =>
    withServedProject((served) =>
      withBrowser(async (browser) => {
        const origin = `http://127.0.0.1:${served.port}`;
        const cookieName = `weft_studio_${served.port}`;
        const secrets: string[] = [];
        const person = await newPerson(browser);
        const step = browserSteps(t);
        let studio: Page;
        let ticketUrl = "";
        let tabKey = "";

        try {
          // The steps share the person and the page: each needs the session opened here.
          const opened = await openStudio(person, served);
          studio = opened.page;
          secrets.push(opened.ticket);
          ticketUrl = `${origin}/studio/?ticket=${opened.ticket}`;

          await step(
            "a ticket opens Studio and leaves the address bar; scripts read no cookie, the tab key is in the tab's storage",
            async () => {
              // The ticket has left the address; the page's own route (its hash) is all it adds.
              assert.equal(studio.url().replace(/#.*$/, ""), `${origin}/studio/`);
              await shown(studio.getByRole("heading", { name: "weft Studio" }), "Studio's heading");
              const seen = await studio.evaluate(() => {
                const { document, location, localStorage, sessionStorage } =
                  globalThis as unknown as PageGlobals;
                return {
                  href: location.href,
                  referrer: document.referrer,
                  cookie: document.cookie,
                  storage: JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
                };
              });
              assert.equal(seen.cookie, "", "the session cookie is HttpOnly");
              assert.ok(
                !JSON.stringify(seen).includes(opened.ticket),
                "the ticket stays nowhere a script reads",
              );
              const key = await studio.evaluate(() => {
                const { sessionStorage, document } = globalThis as unknown as PageGlobals;
                return {
                  stored: sessionStorage["weft-studio-key"],
                  inPage: document.querySelector('meta[name="weft-studio-key"]') !== null,
                };
              });
              assert.match(key.stored, /^[A-Za-z0-9_-]{43}$/, "the tab key is kept in sessionStorage");
              assert.equal(key.inPage, false, "and taken out of the page");
              tabKey = key.stored;
              secrets.push(tabKey);
            },
          );

          await step(
            "the cookie is HttpOnly, SameSite=Strict, a browser-session cookie per Studio path",
            async () => {
              const cookies = (await person.cookies()).filter((cookie) => cookie.name === cookieName);
              assert.deepEqual(cookies.map((cookie) => cookie.path).sort(), [
                "/internal/mcp/studio",
                "/studio",
              ]);
              for (const cookie of cookies) {
                assert.equal(cookie.httpOnly, true);
                assert.equal(cookie.sameSite, "Strict");
                assert.equal(cookie.domain, "127.0.0.1", "host-only, on this address");
                assert.equal(cookie.expires, -1, "ends with the browser session");
                secrets.push(cookie.value);
              }
              assert.deepEqual(await person.cookies([`${origin}/mcp`, `${origin}/internal/mcp`]), []);
            },
          );

          await step(
            "the redirect file weft studio opens takes the browser into Studio, and goes",
            async () => {
              const other = await newPerson(browser);
              try {
                const minted = await fetch(`${origin}/studio/ticket?redirectFile=true`, {
                  method: "POST",
                  headers: { authorization: `Bearer ${served.connection.internalToken}` },
                });
                const { redirectFile, ticket } = await minted.json();
                secrets.push(ticket);
                const page = await other.newPage();
                await page.goto(redirectFile);
                await page.waitForURL(`${origin}/studio/**`);
                await shown(page.getByRole("heading", { name: "weft Studio" }), "Studio's heading");
                await shown(page.getByText("Live"), "the connection indicator saying Live");
                assert.ok(!page.url().includes(ticket), "the ticket left the address");
                const file = new URL(redirectFile).pathname;
                assert.equal(await Deno.stat(file).catch(() => null), null, "the used file is gone");
              } finally {
                await other.close();
              }
            },
          );

          await step("a used ticket opens nothing, in another browser or the same one", async () => {
            const other = await newPerson(browser);
            try {
              const page = await other.newPage();
              const again = await page.goto(ticketUrl);
              assert.equal(again?.status(), 403);
              await shown(page.getByRole("heading", { name: "This Studio link is used up" }), "the refusal");
              assert.deepEqual(await other.cookies(), [], "no cookie for a used ticket");
              const bare = await page.goto(`${origin}/studio/`);
              assert.equal(bare?.status(), 401, "Studio without a session");
            } finally {
              await other.close();
            }
            const page = await person.newPage();
            assert.equal((await page.goto(ticketUrl))?.status(), 403);
            await page.close();
          });

          await step(
            "the page's own script opens Studio's endpoint; /mcp and /internal/mcp never see the cookie",
            async () => {
              const record = await networkRecord(studio);
              const sentTo = async (path: string) => {
                const url = `${origin}${path}`;
                const index = record.count(url);
                const status = await postInitialize(studio, path);
                const exchange = await record.exchange(url, index);
                assert.equal(exchange.status, status);
                return { status, cookie: exchange.sent.cookie ?? "" };
              };
              const own = await sentTo("/internal/mcp/studio");
              assert.equal(own.status, 200, "the cookie opens a session on Studio's endpoint");
              assert.ok(own.cookie.includes(cookieName));
              for (const path of ["/mcp", "/internal/mcp"]) {
                const other = await sentTo(path);
                assert.equal(other.status, 401, path);
                assert.ok(!other.cookie.includes(cookieName), `the browser sent the cookie to ${path}`);
              }
              // A client that sends the cookie anyway is refused there too.
              const cookie = `${cookieName}=${secrets[1]}`;
              for (const path of ["/mcp", "/internal/mcp"]) {
                const forced = await person.request.post(`${origin}${path}`, {
                  headers: { cookie, origin, "content-type": "application/json", accept: "application/json" },
                  data: INITIALIZE,
                });
                assert.equal(forced.status(), 401, `the cookie opened ${path}`);
              }
            },
          );

          await step(
            "a page of another origin gets 403 for every request that carries the cookie",
            async () => {
              await refusedElsewhere(person, origin, cookieName);
            },
          );

          await step(
            "another loopback server gets the cookie from its own page, and nothing it can use it with",
            async () => {
              await cookieUselessElsewhere(person, origin, cookieName, tabKey);
            },
          );

          await step(
            "the service's files hold neither the ticket nor the cookie, and say what was refused",
            async () => {
              const files = await serviceFiles(served.projectDir);
              assert.ok(secrets.length >= 4, "the ticket, the key and the cookies were all searched for");
              assert.match(files, /"studio\.opened"/);
              assert.match(files, /"studio\.refused"/);
              for (const secret of secrets) {
                assert.ok(!files.includes(secret), "a Studio secret reached a file");
              }
            },
          );
        } finally {
          await person.close();
        }
      })
    ),
});

/**
 * A page of another loopback server fetches its own server's `/studio/…` and `/internal/mcp/studio` with
 * credentials: the browser sends Studio's cookie along (a cookie knows no port), so that server holds it. It
 * replays the cookie with Studio's own `Origin` forged, as any program can, and gets 401: the tab key it would
 * need never left Studio's tab, neither in what it received nor in its page's storage.
 */
async function cookieUselessElsewhere(
  person: BrowserContext,
  origin: string,
  cookieName: string,
  key: string,
): Promise<void> {
  const foreign = foreignOrigin();
  const page = await person.newPage();
  try {
    await page.goto(foreign.origin);
    const seen = await page.evaluate(async () => {
      const { sessionStorage, localStorage } = globalThis as unknown as PageGlobals;
      for (const path of ["/studio/", "/internal/mcp/studio"]) {
        await (await fetch(path, { method: "POST", credentials: "include", body: "{}" })).text();
      }
      return JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage });
    });
    assert.ok(!seen.includes(key), "the other page's storage holds no key");
    const stolen = foreign.received.map((headers) =>
      headers.cookie ?? ""
    ).find((cookie) => cookie.includes(`${cookieName}=`)) ??
      assert.fail("the browser sent the other server no Studio cookie; the test proves nothing");
    assert.ok(!JSON.stringify(foreign.received).includes(key), "no key reached the other server");

    const value = stolen.split(";").map((pair) =>
      pair.trim()
    ).find((pair) => pair.startsWith(`${cookieName}=`))!;
    const replay = await fetch(`${origin}/internal/mcp/studio`, {
      method: "POST",
      headers: {
        cookie: value,
        origin,
        "sec-fetch-site": "same-origin",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": PROTOCOL_VERSION,
      },
      body: INITIALIZE,
    });
    assert.equal(replay.status, 401, "the stolen cookie opened Studio's endpoint");
    assert.match((await replay.json()).error.message, /lacks its Studio tab's key/);
  } finally {
    await page.close();
    await foreign.close();
  }
}

/** From a page of another loopback port: fetches, a form and a frame aimed at Studio, all refused. */
async function refusedElsewhere(person: BrowserContext, origin: string, cookieName: string): Promise<void> {
  const foreign = foreignOrigin();
  const page = await person.newPage();
  try {
    await page.goto(foreign.origin);
    const record = await networkRecord(page);
    /** Runs `act` on the foreign page; resolves with the next request to `url` it made, as the browser saw it. */
    const attempt = async (url: string, act: (url: string) => unknown): Promise<Exchange> => {
      const index = record.count(url);
      await page.evaluate(act, url).catch(() => {}); // a refused fetch rejects; the record tells what happened
      const exchange = await record.exchange(url, index);
      assert.ok(
        (exchange.sent.cookie ?? "").includes(cookieName),
        `the browser sent the cookie to ${url} (another port is the same site)`,
      );
      return exchange;
    };
    const endpoint = `${origin}/internal/mcp/studio`;
    const page_ = `${origin}/studio/`;

    const post = await attempt(endpoint, (url) =>
      fetch(url as string, {
        method: "POST",
        mode: "no-cors",
        credentials: "include",
        headers: { "content-type": "text/plain" },
        body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      }));
    assert.equal(post.status, 403, "a cross-origin POST with the cookie");
    assert.equal(post.sent.origin, foreign.origin);

    const read = await attempt(
      page_,
      (url) => fetch(url as string, { mode: "no-cors", credentials: "include" }),
    );
    assert.equal(read.status, 403, "a cross-origin read of the page with the cookie");
    assert.equal(read.sent["sec-fetch-site"], "same-site");

    const form = await attempt(endpoint, (url) => {
      const { document } = globalThis as unknown as PageGlobals;
      const form = document.createElement("form");
      form.method = "post";
      form.action = url;
      form.enctype = "text/plain";
      const field = document.createElement("input");
      field.name = '{"jsonrpc":"2.0","id":1,"method":"tools/list","x":"';
      field.value = '"}';
      form.append(field);
      document.body.append(form);
      form.submit();
    });
    assert.equal(form.status, 403, "a cross-origin form POST with the cookie");
    assert.equal(form.sent.origin, foreign.origin);
    await page.waitForURL(endpoint); // the form's navigation ends on the refusal

    await page.goto(foreign.origin);
    const framed = await attempt(page_, (url) => {
      const { document } = globalThis as unknown as PageGlobals;
      const frame = document.createElement("iframe");
      frame.src = url;
      document.body.append(frame);
    });
    assert.equal(framed.status, 403, "Studio in a frame of another origin, with the cookie");
  } finally {
    await page.close();
    await foreign.close();
  }
}
