/**
 * Studio's first view in a real browser (Chromium): the Runs waiting for the person show from the data the
 * opened page carries, before the page's MCP session is up (its requests are held back), a Run intent of
 * `</script><script>` stays text and runs nothing, and once the session is up the list follows changes as
 * before.
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { eventually } from "../support/deadline.ts";
import { call, closeClient, mcpClient, type ServedProject, withServedProject } from "../support/service.ts";
import { NOTES_PROJECT } from "../cli/support.ts";
import { newPerson, type Page, shown, studioAddress, withBrowser } from "./support.ts";

const HOSTILE = "</script><script>alert(1)</script><img src=x onerror=alert(2)>";

/** Starts a Run of the notes workflow (it waits for the person) from the terminal's endpoint. */
async function startRun(served: ServedProject, intent: string): Promise<string> {
  const client = await mcpClient(served, "/internal/mcp");
  try {
    return (await call<{ run: RunView }>(client, "flow", { flowName: "notes", intent })).run.runId;
  } finally {
    await closeClient(client);
  }
}

Deno.test({
  name: "studio first view: the waiting Runs show before the session is up, a hostile intent stays text",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    withServedProject({ files: NOTES_PROJECT }, (served) =>
      withBrowser(async (browser) => {
        await startRun(served, HOSTILE);
        const person = await newPerson(browser);
        const page = await person.newPage();
        const dialogs: string[] = [];
        page.on("dialog", (dialog) => {
          dialogs.push(dialog.message());
          dialog.dismiss().catch(() => {});
        });
        // The page's MCP requests wait until the list has been seen.
        let release!: () => void;
        const released = new Promise<void>((resolve) => release = resolve);
        let held = 0;
        await page.route("**/internal/mcp/studio", async (route) => {
          held++;
          await released;
          await route.continue().catch(() => {});
        });
        const { url } = await studioAddress(served);
        const response = await page.goto(url, { waitUntil: "load" });
        assert.equal(response?.status(), 200);

        const runs = page.getByRole("table", { name: "Runs" });
        await shown(runs.getByRole("link", { name: HOSTILE, exact: true }), "the hostile intent, as text");
        // The page's program, loaded after the first paint, renders and asks for its session, held back.
        await page.locator("#studio[data-running]").waitFor({ state: "attached" });
        await eventually("the page to ask for its session", () => held >= 1 || undefined);
        assert.notEqual(await page.getByRole("status").textContent(), "Live", "no session yet");
        assert.equal(
          await page.locator("script:not([src])").count(),
          0,
          "no inline script is left in the page, the data element included",
        );

        release();
        await eventually(
          "the connection indicator to read Live",
          async () => (await page.getByRole("status").textContent())?.trim() === "Live" || undefined,
        );
        // The live session takes over: a Run started elsewhere now shows without a reload.
        await startRun(served, "Started after the page opened");
        await shown(runs.getByRole("link", { name: "Started after the page opened" }), "the new Run");
        assert.deepEqual(dialogs, [], "nothing in the intent ran");
        await person.close();
      })),
});

/** A Run's text made to end the table and run code if it were ever written into the page as markup. */
const TABLE_BREAKER = "</table><script>alert(1)</script><img src=x onerror=alert(1)>";

/** `#studio`'s markup, less what the service cannot know (the person's locale writes the update times). */
async function rootMarkup(page: Page): Promise<string> {
  const markup = await page.locator("#studio").innerHTML();
  return markup.replace(/(<time [^>]*>)[^<]*(<\/time>)/g, "$1$2").replace(/ selected=""/g, "");
}

/** Holds back the page's MCP requests until the returned function is called. */
async function holdSession(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  await page.route("**/internal/mcp/studio", async (route) => {
    await released;
    await route.continue().catch(() => {});
  });
  return release;
}

Deno.test({
  name:
    "studio first view: the Runs list is in the HTML (shown with JavaScript off, its text escaped), the " +
    "script's first render draws the same markup in its place, and then one list follows changes",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    withServedProject({ files: NOTES_PROJECT }, (served) =>
      withBrowser(async (browser) => {
        await startRun(served, TABLE_BREAKER);
        await startRun(served, "Plain notes");

        // A browser that runs no script: the list, the count and the navigation are the service's HTML.
        const still = await newPerson(browser, { javaScriptEnabled: false });
        const bare = await still.newPage();
        const response = await bare.goto((await studioAddress(served)).url, { waitUntil: "load" });
        assert.equal(response?.status(), 200);
        const list = bare.getByRole("table", { name: "Runs" });
        await shown(
          list.getByRole("link", { name: TABLE_BREAKER, exact: true }),
          "the hostile intent, as text",
        );
        assert.equal(await list.getByRole("row").count(), 3, "the heading row and the two Runs");
        assert.equal(await bare.getByRole("table").count(), 1, "the intent did not end the table");
        assert.equal(await bare.locator("#studio img").count(), 0, "nor made an element");
        await shown(bare.getByRole("link", { name: "Waiting for you (2)" }), "the waiting count");
        assert.equal(await bare.title(), "Runs · weft Studio");
        const served_ = await rootMarkup(bare);
        await still.close();

        // A browser that runs it, its session held back: the first render replaces that markup with its own.
        const person = await newPerson(browser);
        const page = await person.newPage();
        const dialogs: string[] = [];
        page.on("dialog", (dialog) => {
          dialogs.push(dialog.message());
          dialog.dismiss().catch(() => {});
        });
        const release = await holdSession(page);
        await page.goto((await studioAddress(served)).url, { waitUntil: "load" });
        await page.locator("#studio[data-running]").waitFor({ state: "attached" });
        assert.equal(await rootMarkup(page), served_, "the script's first render is the service's markup");

        release();
        await eventually(
          "the connection indicator to read Live",
          async () => (await page.getByRole("status").textContent())?.trim() === "Live" || undefined,
        );
        const runs = page.getByRole("table", { name: "Runs" });
        await startRun(served, "Started after the page opened");
        await shown(runs.getByRole("link", { name: "Started after the page opened" }), "the new Run");
        assert.equal(await page.getByRole("table").count(), 1, "one list, the script's");
        assert.equal(await runs.getByRole("row").count(), 4, "each Run once");
        await shown(page.getByRole("link", { name: "Waiting for you (3)" }), "the count, live");
        assert.deepEqual(dialogs, [], "nothing in the intent ran");
        await person.close();
      })),
});

Deno.test({
  name: "studio first view: a Run clicked in the service's list before the script has run opens when it runs",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: () =>
    withServedProject({ files: NOTES_PROJECT }, (served) =>
      withBrowser(async (browser) => {
        const runId = await startRun(served, "Open me early");
        const person = await newPerson(browser);
        const page = await person.newPage();
        let release!: () => void;
        const released = new Promise<void>((resolve) => release = resolve);
        await page.route(/\/studio\/studio[^/]*\.js$/, async (route) => {
          await released;
          await route.continue().catch(() => {});
        });
        await page.goto((await studioAddress(served)).url, { waitUntil: "commit" });
        await shown(page.getByRole("link", { name: "Open me early" }), "the service's list");
        await page.getByRole("link", { name: "Open me early" }).click();
        await eventually(
          "the address to name the Run",
          () => new URL(page.url()).hash === `#/runs/${runId}` || undefined,
        );
        assert.equal(await page.locator("#studio[data-running]").count(), 0, "the script had not run");

        release();
        await shown(page.getByRole("heading", { name: "Open me early" }), "the Run's own view");
        assert.equal(new URL(page.url()).search, "", "the ticket left the address, the hash stayed");
        assert.equal(new URL(page.url()).hash, `#/runs/${runId}`);
        await person.close();
      })),
});
