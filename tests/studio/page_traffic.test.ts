/**
 * What a Studio tab asks of the service, in a real browser (Chromium). One change on the home view is read
 * once, though its count and its list both follow it (a read asked while the same read is on its way shares
 * its answer). A tab gives its session back when it goes away: leaving the page ends
 * the page's MCP session on the service at once (a DELETE the browser keeps alive through the unload) and opens
 * no other as that session's stream ends, instead of holding one of the service's bounded session places for
 * its idle hour; coming back to the page opens one again. A session that fails as it opens, after the service
 * opened it, is ended on the service too, before the page opens another.
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { call, mcpClient, withServedProject } from "../support/service.ts";
import { NOTES_PROJECT } from "../cli/support.ts";
import { browserSteps, newPerson, openStudio, sessionCount, shown, withBrowser } from "./support.ts";

Deno.test({
  name: "studio in a browser: one change, one read; a tab that leaves ends its session and opens none",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: (t) =>
    withServedProject({ files: NOTES_PROJECT }, (served) =>
      withBrowser(async (browser) => {
        const step = browserSteps(t);
        const client = await mcpClient(served, "/internal/mcp");
        const context = await newPerson(browser);
        try {
          const { open, reach: sessions } = sessionCount(client);
          const alone = await open();
          const start = async (intent: string) =>
            (await call<{ run: RunView }>(client, "flow", { flowName: "notes", intent })).run.runId;
          const first = await start("Release notes");
          const second = await start("Meeting notes");
          const { page } = await openStudio(context, served);
          let listReads = 0;
          page.on("request", (request) => {
            if (request.method() === "POST" && request.postData()?.includes('"name":"list_runs"')) {
              listReads++;
            }
          });
          await step("the page holds one session while it shows Studio", async () => {
            await shown(page.getByText("Live"), "the connection indicator saying Live");
            await shown(page.getByRole("link", { name: "Waiting for you (2)" }), "two Runs waiting");
            assert.equal(await open(), alone + 1);
          });
          await step(
            "one change on the home view: its count and its list follow it with one read",
            async () => {
              await call(client, "cancel_run", { runId: first });
              await shown(page.getByRole("link", { name: "Waiting for you (1)" }), "one Run waiting");
              await shown(page.getByText("Meeting notes"), "the Run still waiting");
              const before = listReads;
              await call(client, "cancel_run", { runId: second });
              await shown(page.getByRole("link", { name: "Waiting for you (0)" }), "no Run waiting");
              await shown(page.getByText("Nothing is waiting for you."), "the empty home view");
              assert.equal(listReads - before, 1);
            },
          );
          await step("leaving the page ends it, and no other opens", async () => {
            await page.goto("about:blank");
            await sessions(alone, "the page's session ended on the service");
            // Nothing reopened it (this browser runs without the back-forward cache: back_forward_cache.test.ts).
            assert.equal(await open(), alone);
          });
          await step(
            "back on the page, Studio is live again with one session",
            async () => {
              await page.goBack();
              await shown(page.getByText("Live"), "the connection indicator saying Live");
              await sessions(alone + 1, "one session for the page");
            },
          );
          await step(
            "sessions that fail after the service opened them are ended there, and another opens",
            async () => {
              const other = await newPerson(browser);
              try {
                // The first try fails at `notifications/initialized`, the second at its first subscription.
                const toFail = new Set(["notifications/initialized", "resources/subscribe"]);
                await other.route("**/internal/mcp/studio", (route) => {
                  const method = /"method":"([^"]+)"/.exec(route.request().postData() ?? "")?.[1];
                  if (method && toFail.delete(method)) return route.abort("connectionreset");
                  return route.continue();
                });
                const { page: second } = await openStudio(other, served);
                await shown(second.getByText("Live"), "the second tab's indicator saying Live");
                assert.equal(toFail.size, 0, "both tries were made to fail");
                await sessions(alone + 2, "one session for each tab, none left by the failed ones");
              } finally {
                await other.close();
              }
            },
          );
        } finally {
          await context.close();
          await client.close();
        }
      })),
});
