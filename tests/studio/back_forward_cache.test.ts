/**
 * A Studio tab under the browser's back-forward cache, which browsers people use keep on (the other browser
 * tests run without it). A page left for another keeps no session on the service while it sits in the cache,
 * also when it left just as it was reconnecting; shown again, it is live and shows what changed meanwhile. A
 * session held by a page that runs nothing would stay for its idle hour, and keep a service that a client
 * started from exiting when idle.
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { call, mcpClient, serve, type ServedProject, withServedProject } from "../support/service.ts";
import { eventually } from "../support/deadline.ts";
import { NOTES_PROJECT } from "../cli/support.ts";
import { NotRestored, RestoredPage } from "./restored_page.ts";
import { browserSteps, newPerson, openStudio, sessionCount, shown, withBrowser } from "./support.ts";

/**
 * Goes back to the page `restored` follows, restored from the cache. When Chromium loads it anew for reasons of
 * its own only (memory pressure, a timeout), `leave` is taken again and the page comes back again, at most three
 * times in all; a reason that is the page's doing fails at once.
 */
async function backFromTheCache(restored: RestoredPage, leave: () => Promise<void>): Promise<void> {
  for (let attempt = 1;; attempt++) {
    try {
      return await restored.back();
    } catch (error) {
      if (!(error instanceof NotRestored && error.circumstantial) || attempt === 3) throw error;
      console.log(`${error.message}; leaving and coming back again`);
      await leave();
    }
  }
}

Deno.test({
  name: "studio under the back-forward cache: a page away holds no session, and is live when it comes back",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: (t) =>
    withServedProject({ files: NOTES_PROJECT }, (served) =>
      withBrowser(async (browser) => {
        const step = browserSteps(t);
        let client = await mcpClient(served, "/internal/mcp");
        let restarted: ServedProject | undefined;
        const context = await newPerson(browser);
        try {
          let sessions = sessionCount(client);
          const alone = await sessions.open();
          const start = async (intent: string) =>
            (await call<{ run: RunView }>(client, "flow", { flowName: "notes", intent })).run.runId;
          const first = await start("Release notes");
          const second = await start("Meeting notes");
          const { page } = await openStudio(context, served);
          const restored = await RestoredPage.follow(page);
          const elsewhere = new URL("/studio/no-such-file.txt", served.url).href;
          const leave = async () => {
            await page.goto(elsewhere);
            await sessions.reach(alone, "the page's session to end on the service");
          };

          await step("the page holds one session while it shows Studio", async () => {
            await shown(page.getByText("Live"), "the connection indicator saying Live");
            await shown(page.getByRole("link", { name: "Waiting for you (2)" }), "two Runs waiting");
            assert.equal(await sessions.open(), alone + 1);
          });

          await step(
            "left for another page of the service, the page in the cache holds no session",
            async () => {
              await leave();
              await call(client, "cancel_run", { runId: first });
            },
          );

          await step("back, the page is live again and shows what changed while it was away", async () => {
            await backFromTheCache(restored, leave);
            await restored.shows("link", "Waiting for you (1)", "the Run cancelled meanwhile gone");
            await restored.shows("status", "Live", "the connection indicator saying Live");
            await sessions.reach(alone + 1, "one session for the page");
          });

          await step("left as it reconnects, the session on its way is withdrawn", async () => {
            await served.stop();
            await restored.shows("status", /^(Reconnecting…|Offline)$/, "the page reconnecting");
            // The page's next try to open a session is held in the browser until the page has left.
            const cdp = await context.newCDPSession(page);
            let held: string | undefined;
            cdp.on("Fetch.requestPaused", (event) => {
              if (held === undefined && event.request.postData?.includes('"method":"initialize"')) {
                held = event.requestId;
              } else {
                cdp.send("Fetch.continueRequest", { requestId: event.requestId }).catch(() => {});
              }
            });
            await cdp.send("Fetch.enable", { patterns: [{ urlPattern: "*/internal/mcp/studio" }] });
            restarted = await serve(served.projectDir, { port: "previous" });
            await client.close();
            client = await mcpClient(restarted, "/internal/mcp");
            sessions = sessionCount(client);
            const heldInitialize = await eventually("the page's try to open a session", () => held);
            await page.goto(elsewhere);
            // The page aborts the request as it leaves, which the browser may learn only after the next page
            // has loaded. Asking for the body of a request not yet answered changes nothing, and tells whether
            // the browser still holds it.
            let probe = "nothing yet";
            const withdrawn = async () => {
              try {
                await cdp.send("Fetch.getResponseBody", { requestId: heldInitialize });
                probe = "a body";
              } catch (error) {
                if (/Invalid InterceptionId/.test((error as Error).message)) return true;
                probe = (error as Error).message;
              }
            };
            await eventually(() => `the page to withdraw its request as it left (last: ${probe})`, withdrawn);
            // Let go now, the request would open a session that the page, frozen in the cache, keeps.
            await assert.rejects(
              cdp.send("Fetch.continueRequest", { requestId: heldInitialize }),
              /Invalid InterceptionId/,
              "the browser holds the request no more",
            );
            await cdp.send("Fetch.disable");
            await cdp.detach();
            assert.equal(await sessions.open(), alone);
            await call(client, "cancel_run", { runId: second });
            await backFromTheCache(restored, leave);
            await restored.shows("link", "Waiting for you (0)", "no Run waiting any more");
            await restored.shows("status", "Live", "the connection indicator saying Live");
            await sessions.reach(alone + 1, "one session for the page");
          });
        } finally {
          await context.close();
          await client.close();
          await restarted?.stop();
        }
      }, { backForwardCache: true })),
});
