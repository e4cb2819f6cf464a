/**
 * A Studio tab gives its session back when it goes away: leaving the page ends the page's MCP session on the
 * service at once (a DELETE the browser keeps alive through the unload), instead of leaving it to its idle
 * hour, where it would hold one of the service's bounded session places.
 */

import assert from "node:assert/strict";
import { call, mcpClient, withServedProject } from "../support/service.ts";
import { eventually } from "../support/deadline.ts";
import { browserSteps, newPerson, openStudio, shown, withBrowser } from "./support.ts";

interface Status {
  service: { counts: { sessions: { open: number } } };
}

Deno.test({
  name: "studio in a browser: a tab that leaves ends its session on the service",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: (t) =>
    withServedProject((served) =>
      withBrowser(async (browser) => {
        const step = browserSteps(t);
        const client = await mcpClient(served, "/internal/mcp");
        const context = await newPerson(browser);
        try {
          const open = async () => (await call<Status>(client, "status")).service.counts.sessions.open;
          const alone = await open();
          const { page } = await openStudio(context, served);
          await step("the page's session counts while the tab shows Studio", async () => {
            await shown(page.getByText("Live"), "the connection indicator saying Live");
            assert.equal(await open(), alone + 1);
          });
          await step("leaving the page ends it", async () => {
            await page.goto("about:blank");
            await eventually("the page's session ended on the service", async () => {
              return await open() === alone ? true : undefined;
            });
          });
        } finally {
          await context.close();
          await client.close();
        }
      })
    ),
});
