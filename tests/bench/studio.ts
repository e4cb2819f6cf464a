/**
 * Studio in Chromium: the time from opening the page through a ticket to the Runs list shown, with 1,000 Runs
 * stored, against opening a static page of the same server the same way (a used ticket's answer: one small
 * HTML document, no script, no request after it); and the size of Studio's embedded files.
 *
 * @module
 */

import type { Browser } from "../studio/support.ts";
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

/** The page-load row: alternating Studio and the static page, each in a fresh browser context. */
export async function benchStudioLoad(): Promise<void> {
  const metric = `Studio: open to Runs list shown, ${STORED_RUNS} Runs stored, vs a static page`;
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
    for (let i = 0; i < 2; i++) await studio(), await plain();
    const [studioMs, staticMs] = [[], []] as [number[], number[]];
    for (let i = 0; i < N.pageLoads; i++) {
      // Which goes first swaps every round, so drift in the machine's load affects both alike.
      if (i % 2) staticMs.push(await plain()), studioMs.push(await studio());
      else studioMs.push(await studio()), staticMs.push(await plain());
    }
    ratioRow("studioRunsShown", metric, summarize(studioMs), summarize(staticMs), "a static page", null, {
      storedRuns: STORED_RUNS,
    });
  } catch (error) {
    failedRow("studioRunsShown", metric, "—", reason(error));
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

/** Milliseconds from opening Studio through a fresh ticket, in a new context, to the first Run's row. */
async function openStudio(browser: Browser, server: Started): Promise<number> {
  const url = await ticketUrl(server);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const started = performance.now();
    await withTimeout(page.goto(url), "Studio to load");
    await withTimeout(
      page.getByRole("table", { name: "Runs" }).getByRole("link").first().waitFor(),
      "the Runs list to show",
    );
    return performance.now() - started;
  } finally {
    await context.close();
  }
}

/** Milliseconds from opening `url` in a new context to its load event. */
async function load(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const started = performance.now();
    await withTimeout(page.goto(url), "the static page to load");
    return performance.now() - started;
  } finally {
    await context.close();
  }
}
