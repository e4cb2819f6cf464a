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
import { newPerson, shown, studioAddress, withBrowser } from "./support.ts";

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
        assert.notEqual(await page.getByRole("status").textContent(), "Live", "no session yet");
        assert.ok(held >= 1, "the page did ask for its session, which was held back");
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
