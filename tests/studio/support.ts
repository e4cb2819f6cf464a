// deno-lint-ignore-file no-import-prefix -- playwright-core is test-only: named here, not in deno.json,
// since Deno installs every package deno.json names on any command's first run.
/**
 * Support of the browser tests: Debian's Chromium driven by playwright-core, one browser per test file, a fresh
 * profile per launch, a context per person, deadlines on every wait, and screenshots written as test output.
 *
 * @module
 */

import {
  type Browser,
  type BrowserContext,
  chromium,
  type Locator,
  type Page,
} from "npm:playwright-core@1.65.1";

export type { Browser, BrowserContext, Locator, Page };
import { eventually, WAIT_MS } from "../support/deadline.ts";
import type { Client } from "../support/sdk_test_client.ts";
import { call, type ServedProject } from "../support/service.ts";

/** The browser the tests drive: Debian's `chromium` package (`WEFT_CHROMIUM` names another binary). */
export const CHROMIUM = Deno.env.get("WEFT_CHROMIUM") ?? "/usr/bin/chromium";

/** The flags every launch passes: no sandbox (CI runs as root), headless, and nothing that phones home. */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Where screenshots go: `test-output/studio/` of the checkout (ignored by git), or `WEFT_TEST_OUTPUT`. */
export const SCREENSHOTS = Deno.env.get("WEFT_TEST_OUTPUT") ??
  new URL("../../test-output/studio/", import.meta.url).pathname;

/** How a test's browser differs from the default one. */
export interface BrowserOptions {
  /**
   * Keep the back-forward cache on, as browsers people use do: Playwright turns it off by default (its
   * `--disable-back-forward-cache`), so a page left is otherwise always unloaded.
   */
  backForwardCache?: boolean;
}

/**
 * Launches Chromium headless with a fresh, temporary profile (Playwright makes a new `--user-data-dir` for each
 * launch and removes it on close). A missing browser fails the test with what to install: the browser tests
 * never pass by skipping.
 */
export async function launchBrowser(options: BrowserOptions = {}): Promise<Browser> {
  const info = await Deno.stat(CHROMIUM).catch(() => null);
  if (!info?.isFile) {
    throw new Error(
      `the browser tests need Chromium at ${CHROMIUM}, and it is not there. Install it with ` +
        "`apt-get install -y chromium` as root (.ci/run does, see docs/development.md), or point " +
        "WEFT_CHROMIUM at a Chromium binary",
    );
  }
  return await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    ignoreDefaultArgs: options.backForwardCache ? ["--disable-back-forward-cache"] : [],
    timeout: WAIT_MS,
  });
}

/**
 * Runs `fn` with one browser for the whole test, closed whatever happens. Playwright's own pipes outlive
 * single steps, so the test that owns the browser turns Deno's op and resource sanitizers off for itself.
 */
export async function withBrowser<T>(
  fn: (browser: Browser) => Promise<T>,
  options: BrowserOptions = {},
): Promise<T> {
  const browser = await launchBrowser(options);
  try {
    return await fn(browser);
  } finally {
    await browser.close();
  }
}

/**
 * The step function of browser test `t`: every step, like the test that owns the browser, leaves Deno's op and
 * resource sanitizers off, since Playwright's pipes outlive single steps.
 */
export function browserSteps(
  t: Deno.TestContext,
): (name: string, fn: () => Promise<void>) => Promise<boolean> {
  return (name, fn) => t.step({ name, fn, sanitizeOps: false, sanitizeResources: false });
}

/**
 * A new browser context (a person with no cookies yet) whose every wait gives up after the test deadline;
 * `javaScriptEnabled: false` for a browser that runs no page script.
 */
export async function newPerson(
  browser: Browser,
  options: { javaScriptEnabled?: boolean } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    colorScheme: "light",
    viewport: { width: 1200, height: 800 },
    ...options,
  });
  context.setDefaultTimeout(WAIT_MS);
  context.setDefaultNavigationTimeout(WAIT_MS);
  return context;
}

/** Asks the served project for a Studio address with a fresh ticket, as `weft studio` does. */
export async function studioAddress(served: ServedProject): Promise<{ url: string; ticket: string }> {
  const response = await fetch(new URL("/studio/ticket", served.url), {
    method: "POST",
    headers: { authorization: `Bearer ${served.connection.internalToken}` },
  });
  if (response.status !== 200) throw new Error(`no Studio ticket: HTTP ${response.status}`);
  const { url, ticket } = await response.json();
  return { url, ticket };
}

/** Opens Studio through a fresh ticket in a new page of `context`; resolves once the page's program runs. */
export async function openStudio(
  context: BrowserContext,
  served: ServedProject,
): Promise<{ page: Page; ticket: string }> {
  const { url, ticket } = await studioAddress(served);
  const page = await context.newPage();
  const response = await page.goto(url, { waitUntil: "load" });
  if (response?.status() !== 200) throw new Error(`Studio did not open: HTTP ${response?.status()}`);
  await running(page);
  return { page, ticket };
}

/**
 * Waits (within the deadline) until the page's program has rendered: it loads after the first paint, and
 * until then the page is the service's HTML, whose controls do nothing yet.
 */
export async function running(page: Page): Promise<void> {
  await page.locator("#studio[data-running]").waitFor({ state: "attached", timeout: WAIT_MS });
}

/** Waits (within the deadline) until `locator` is visible; the failure names `what`. */
export async function shown(locator: Locator, what: string): Promise<Locator> {
  try {
    await locator.first().waitFor({ state: "visible", timeout: WAIT_MS });
  } catch (error) {
    throw new Error(`gave up after ${WAIT_MS / 1000} s waiting for ${what}: ${(error as Error).message}`);
  }
  return locator;
}

/** Saves a full-page screenshot of `page` as test output and prints where it went. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}${name}.png`;
  await page.screenshot({ path, fullPage: true, timeout: WAIT_MS });
  console.log(`screenshot: ${path}`);
  return path;
}

/**
 * A second web origin on another loopback port: a blank page whose scripts and forms the tests drive, served
 * by a server that keeps every request's headers (`received`), as another local server could.
 */
export function foreignOrigin(): {
  origin: string;
  received: Record<string, string>[];
  close: () => Promise<void>;
} {
  const received: Record<string, string>[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => {
      received.push(Object.fromEntries(request.headers));
      return new Response("<!doctype html><title>elsewhere</title><h1>Another site</h1>", {
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    },
  );
  return { origin: `http://127.0.0.1:${server.addr.port}`, received, close: () => server.shutdown() };
}

/** An element, as far as the tests' page scripts touch one. */
export interface PageElement {
  append(...children: PageElement[]): void;
  submit(): void;
  [property: string]: unknown;
}

/**
 * The browser globals the tests' page scripts use, typed here because the tests are checked without the DOM
 * library: `const { document } = globalThis as unknown as PageGlobals;` inside `page.evaluate`.
 */
export interface PageGlobals {
  document: {
    cookie: string;
    referrer: string;
    body: PageElement;
    createElement(tag: string): PageElement;
    querySelector(selector: string): PageElement | null;
  };
  location: { href: string };
  localStorage: Record<string, string>;
  sessionStorage: Record<string, string>;
}

/** One request as Chromium recorded it: the headers it sent and the status the server answered. */
export interface Exchange {
  /** The request's headers as sent (lower-case names), cookies included. */
  sent: Record<string, string>;
  /** The server's status, also when the browser then blocked the response from the page. */
  status: number;
  /** Why the browser kept the response from the page, if it did (e.g. `corp-not-same-origin`). */
  blocked?: string;
}

/**
 * Chromium's own record of a page's requests: Playwright sees neither the cookie and `Origin` of a no-cors
 * request nor a response that the browser blocks, and these tests need both.
 */
export interface NetworkRecord {
  /** How many requests to `url` the page has made so far. */
  count(url: string): number;
  /** Request `index` (from 0) to `url`, once its headers and the server's status are known. */
  exchange(url: string, index: number): Promise<Exchange>;
}

/** Starts recording the requests of `page`. */
export async function networkRecord(page: Page): Promise<NetworkRecord> {
  const session = await page.context().newCDPSession(page);
  const requests: { id: string; url: string }[] = [];
  const sent = new Map<string, Record<string, string>>();
  const status = new Map<string, number>();
  const blocked = new Map<string, string>();
  session.on(
    "Network.requestWillBeSent",
    (event) => void requests.push({ id: event.requestId, url: event.request.url }),
  );
  session.on("Network.requestWillBeSentExtraInfo", (event) => void sent.set(event.requestId, event.headers));
  session.on(
    "Network.responseReceivedExtraInfo",
    (event) => void status.set(event.requestId, event.statusCode),
  );
  session.on("Network.loadingFailed", (event) => {
    if (event.blockedReason) blocked.set(event.requestId, event.blockedReason);
  });
  await session.send("Network.enable");
  const to = (url: string) => requests.filter((request) => request.url === url);
  return {
    count: (url) => to(url).length,
    exchange: (url, index) =>
      eventually(`the browser's record of request ${index} to ${url}`, () => {
        const id = to(url)[index]?.id;
        if (!id || !sent.has(id) || !status.has(id)) return undefined;
        const headers = Object.entries(sent.get(id)!).map(([name, value]) => [name.toLowerCase(), value]);
        return { sent: Object.fromEntries(headers), status: status.get(id)!, blocked: blocked.get(id) };
      }),
  };
}

/** What `status` says of the service's sessions. */
interface SessionStatus {
  service: { counts: { sessions: { open: number } } };
}

/** The service's open sessions as `client` reads them (`status`): now, and once they are `expected`. */
export function sessionCount(client: Client): {
  open: () => Promise<number>;
  reach: (expected: number, what: string) => Promise<unknown>;
} {
  const open = async () => (await call<SessionStatus>(client, "status")).service.counts.sessions.open;
  const reach = (expected: number, what: string) =>
    eventually(what, async () => await open() === expected ? true : undefined);
  return { open, reach };
}
