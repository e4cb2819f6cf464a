/**
 * A running command's output in Studio, in a real browser: the Run's timeline shows each line under the
 * command's start while it still runs (the command prints, then waits on a file only the test creates), and
 * once it ends, the result its timeline entry keeps.
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { eventually } from "../support/deadline.ts";
import { call, closeClient, mcpClient, withServedProject } from "../support/service.ts";
import { commandFiles, startRun, STEPWISE } from "../commands/support.ts";
import { browserSteps, newPerson, openStudio, screenshot, shown, withBrowser } from "./support.ts";

Deno.test({
  name: "studio: a running command's lines appear as they arrive, then its stored result",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await withServedProject({
      trusted: true,
      files: commandFiles("stepwise", { run: ["sh", "-c", STEPWISE] }),
    }, (served) =>
      withBrowser(async (browser) => {
        const person = await newPerson(browser);
        const client = await mcpClient(served, "/internal/mcp");
        const step = browserSteps(t);
        try {
          const { page } = await openStudio(person, served);
          const run = await startRun(client, "stepwise");
          await page.evaluate((hash) => {
            (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
          }, `#/runs/${run.runId}`);
          const timeline = page.getByRole("list", { name: "Timeline" });
          const stdout = timeline.getByRole("log", { name: "stdout so far" });
          const stderr = timeline.getByRole("log", { name: "stderr so far" });

          await step("each line shows while the command still runs", async () => {
            await shown(timeline.getByText("Command started:"), "the command's start");
            await Deno.writeTextFile(`${served.projectDir}/start`, "");
            await shown(stdout.filter({ hasText: "first" }), "the first line of stdout");
            await shown(stderr.filter({ hasText: "warning" }), "the line of stderr");
            assert.equal((await stdout.textContent())?.trim(), "first");
            const { run: now } = await call<{ run: RunView }>(client, "get_run", { runId: run.runId });
            assert.equal(now.pendingCommand?.phase, "running", "the command ended before its line was shown");
            await screenshot(page, "command-running");
          });

          await step("once it ends, the timeline keeps its result", async () => {
            await Deno.writeTextFile(`${served.projectDir}/go`, "");
            await shown(page.getByText("Status: completed"), "the completed status");
            await shown(timeline.getByText(/Command passed: exit 0/), "the command's end");
            await eventually("the live output to go", async () => (await stdout.count()) === 0 || undefined);
            const kept = timeline.locator("details.command-output").filter({ hasText: "stdout" });
            await kept.locator("summary").click();
            assert.equal((await kept.locator("pre").textContent())?.trim(), "first\nsecond");
          });
        } finally {
          await closeClient(client);
          await person.close();
        }
      }));
  },
});
