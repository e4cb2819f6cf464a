/**
 * Studio in Chromium: the time from opening the page through a ticket to the Runs list shown, with 1,000 Runs
 * stored, and to the page's program running (it has taken the page over: the list the service drew is then
 * the program's, and the page answers input), against opening a static page of the same server the same way
 * (a used ticket's answer: one small HTML document, no script, no request after it); and the size of Studio's
 * embedded files.
 *
 * @module
 */

import type { Browser, Page } from "../studio/support.ts";
import { STUDIO_ASSETS } from "../../src/studio/assets.ts";
import { StudioFiles } from "../../src/http/studio_files.ts";
import { launchBrowser } from "../studio/support.ts";
import { N } from "./config.ts";
import { seedRuns } from "./list_runs.ts";
import { summarize } from "./measure.ts";
import { failedRow, log, ratioRow, reason, sizeRow } from "./report.ts";
import { tempDir, withTimeout } from "./resources.ts";
import { startChild, type Started } from "./servers.ts";

/** Runs stored for the page-load row. */
const STORED_RUNS = 1_000;

/** The bytes of every embedded Studio file, and of each, as embedded and as sent to a browser taking gzip. */
export async function benchStudioSize(): Promise<void> {
  const files = Object.fromEntries(
    [...STUDIO_ASSETS].map(([path, asset]) => [path, new TextEncoder().encode(asset.body).length]),
  );
  const total = Object.values(files).reduce((sum, bytes) => sum + bytes, 0);
  const served = await StudioFiles.load();
  const sent = [...STUDIO_ASSETS.keys()].map((path) => served.at(path)!)
    .reduce((sum, file) => sum + (file.gzip ?? file.body).length, 0);
  sizeRow("studioBundle", "Studio's embedded files (page, script, styles)", total, null, { files });
  sizeRow("studioSent", "Studio's files as sent with gzip", sent, null);
}

/**
 * The page-load rows: alternating Studio and the static page, each in a fresh browser context. The first row
 * is timed here (to when Playwright sees the first Run's row, which it can only see while the page's main
 * thread is free); the others by Chromium itself, from the navigation's start: the first contentful paint
 * (Studio's first paint is its header and Runs list at once, whether the service or the script drew them),
 * and the page's program having rendered (its performance mark) against the static page's load event. A last
 * row times the static page as the first row times Studio (to commit, then until Playwright sees its heading,
 * in a load of its own), so that both sides pay the same two round trips to the browser.
 */
export async function benchStudioLoad(): Promise<void> {
  const rows = {
    studioRunsShown: `Studio: open to Runs list shown, ${STORED_RUNS} Runs stored, vs a static page`,
    studioRunsPainted:
      `Studio: Runs list painted (Chromium's first paint), ${STORED_RUNS} Runs, vs a static page's`,
    studioScriptRun:
      `Studio: its program run (interactive), ${STORED_RUNS} Runs, vs a static page's load event`,
    studioRunsSeen:
      `Studio: Runs list seen, ${STORED_RUNS} Runs, vs a static page's heading seen the same way`,
  };
  let server: Started | undefined;
  let browser: Browser | undefined;
  try {
    const dir = await tempDir();
    log(`studio: seeding ${STORED_RUNS} Runs, then opening the page in Chromium`);
    await seedRuns(dir, STORED_RUNS);
    server = await startChild("weft", dir, true);
    browser = await launchBrowser();
    const ready = server;
    const used = await ticketUrl(ready);
    await load(browser, used); // spends the ticket: from now on this address answers with a static page
    const studio = () => openStudio(browser!, ready);
    const plain = () => load(browser!, used);
    const plainSeen = () => seen(browser!, used);
    for (let i = 0; i < 2; i++) await studio(), await plain(), await plainSeen();
    const studioTimes: Timings[] = [];
    const staticTimes: Timings[] = [];
    const staticSeen: number[] = [];
    for (let i = 0; i < N.pageLoads; i++) {
      // Which goes first swaps every round, so drift in the machine's load affects both alike.
      if (i % 2) {
        staticTimes.push(await plain()), staticSeen.push(await plainSeen()), studioTimes.push(await studio());
      } else {studioTimes.push(await studio()),
          staticSeen.push(await plainSeen()),
          staticTimes.push(await plain());}
    }
    const of = (times: Timings[], key: keyof Timings) => summarize(times.map((time) => time[key]));
    const detail = { storedRuns: STORED_RUNS };
    const label = "a static page";
    ratioRow(
      "studioRunsShown",
      rows.studioRunsShown,
      of(studioTimes, "wall"),
      of(staticTimes, "wall"),
      label,
      null,
      detail,
    );
    ratioRow(
      "studioRunsPainted",
      rows.studioRunsPainted,
      of(studioTimes, "painted"),
      of(staticTimes, "painted"),
      label,
      null,
      detail,
    );
    ratioRow(
      "studioScriptRun",
      rows.studioScriptRun,
      of(studioTimes, "ready"),
      of(staticTimes, "loaded"),
      label,
      null,
      detail,
    );
    ratioRow(
      "studioRunsSeen",
      rows.studioRunsSeen,
      of(studioTimes, "wall"),
      summarize(staticSeen),
      "a static page, seen the same way",
      null,
      detail,
    );
  } catch (error) {
    for (const [key, metric] of Object.entries(rows)) failedRow(key, metric, "—", reason(error));
  } finally {
    await browser?.close();
    await server?.stop();
  }
}

/** A fresh Studio address of `server`. */
async function ticketUrl(server: Started): Promise<string> {
  const response = await fetch(new URL("/studio/ticket", server.url), {
    method: "POST",
    headers: { authorization: `Bearer ${server.tokens!.internal}` },
  });
  if (!response.ok) throw new Error(`no ticket: HTTP ${response.status}`);
  return (await response.json()).url;
}

/**
 * One load's milliseconds: `wall` as timed here; the rest by Chromium from the navigation's start: the first
 * contentful paint, the page's program having rendered and the load event's end.
 */
interface Timings {
  wall: number;
  painted: number;
  ready: number;
  loaded: number;
}

/** Runs `use` on a new page in a new browser context (nothing cached, no cookie), closed after. */
async function inNewPage<T>(browser: Browser, use: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  try {
    return await use(await context.newPage());
  } finally {
    await context.close();
  }
}

/** Opens Studio through a fresh ticket in a new context; `wall` ends when the first Run's row is seen. */
async function openStudio(browser: Browser, server: Started): Promise<Timings> {
  const url = await ticketUrl(server);
  return await inNewPage(browser, async (page) => {
    const started = performance.now();
    // Not to the load event, which waits for the script: the list may be in the document, shown before it.
    await withTimeout(page.goto(url, { waitUntil: "commit" }), "Studio to load");
    await withTimeout(
      page.getByRole("table", { name: "Runs" }).getByRole("link").first().waitFor(),
      "the Runs list to show",
    );
    const wall = performance.now() - started;
    await withTimeout(page.waitForLoadState("load"), "Studio's load event");
    // Its program may still be loading (it starts after the first paint); a page without a first script of
    // its own has run its program by now.
    if (await page.locator('meta[name="weft-studio-program"]').count()) {
      await withTimeout(
        page.locator("#studio[data-running]").waitFor({ state: "attached" }),
        "the program to run",
      );
    }
    return { wall, ...await browserTimings(page) };
  });
}

/** Opens `url` in a new context; `wall` ends at its load event. */
async function load(browser: Browser, url: string): Promise<Timings> {
  return await inNewPage(browser, async (page) => {
    const started = performance.now();
    await withTimeout(page.goto(url), "the static page to load");
    const wall = performance.now() - started;
    return { wall, ...await browserTimings(page) };
  });
}

/**
 * Opens `url` in a new context as {@linkcode openStudio} opens Studio: the milliseconds to the response's commit
 * and then until Playwright sees its heading.
 */
async function seen(browser: Browser, url: string): Promise<number> {
  return await inNewPage(browser, async (page) => {
    const started = performance.now();
    await withTimeout(page.goto(url, { waitUntil: "commit" }), "the static page to commit");
    await withTimeout(page.getByRole("heading").first().waitFor(), "the static page's heading to show");
    return performance.now() - started;
  });
}

/** Chromium's own timings of the page's load, once it has painted. */
async function browserTimings(page: Page): Promise<Omit<Timings, "wall">> {
  return await withTimeout(
    page.evaluate(() =>
      new Promise<Omit<Timings, "wall">>((resolve) => {
        const done = (painted: number) => {
          // The navigation entry's fields, named here: the tests' typings are Deno's, not the DOM's.
          const [navigation] = performance.getEntriesByType("navigation") as unknown as {
            domContentLoadedEventEnd: number;
            loadEventEnd: number;
          }[];
          // The page's program marks when it has rendered; a page whose module script is its program (before
          // it had a first script of its own) has run it by DOMContentLoaded.
          const running = performance.getEntriesByName("weft-studio-running")[0]?.startTime;
          resolve({
            painted,
            ready: running ?? navigation.domContentLoadedEventEnd,
            loaded: navigation.loadEventEnd,
          });
        };
        new PerformanceObserver((list) => {
          const paint = list.getEntriesByName("first-contentful-paint")[0];
          if (paint) done(paint.startTime);
        }).observe({ type: "paint", buffered: true });
      })
    ),
    "the page's first paint",
  );
}
