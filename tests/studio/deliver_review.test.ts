/**
 * A `deliver` review in Studio, in a real browser, as a person judges it: the Run reads as its plan (its
 * title) and shows its own id; beside the tasks board, the review names the task with the requirement it
 * serves and its acceptance criterion, says what the agent did and how verify went, lists the files
 * changed and shows the diff file by file (collapsible, numbered, added and removed lines marked), with no
 * internal field. The retry/skip/stop decision names the task and shows what failed.
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { confirmedPlanOverMcp, deliverProject, implementFilesOverMcp } from "../support/deliver_mcp.ts";
import { waitForRun } from "../model/support.ts";
import { call, closeClient, mcpClient, withServedProject } from "../support/service.ts";
import { browserSteps, newPerson, openStudio, type Page, screenshot, shown, withBrowser } from "./support.ts";

/** The project's verify: prints and fails with what FAILING holds while it exists. */
const VERIFY = 'if [ -f FAILING ]; then cat FAILING; exit 1; fi; echo "# pass 1"';

async function openRun(page: Page, runId: string): Promise<void> {
  await page.evaluate((hash) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
  }, `#/runs/${runId}`);
}

Deno.test({
  name:
    "studio: a deliver review shows the task, the agent's summary, verify, and a per-file diff beside the board",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await withServedProject(
      deliverProject(VERIFY, { "README.md": "# demo\nold line\n" }),
      (served) =>
        withBrowser(async (browser) => {
          const dir = served.projectDir;
          const browserPerson = await newPerson(browser);
          const ide = await mcpClient(served, "/mcp");
          const person = await mcpClient(served, "/internal/mcp");
          const step = browserSteps(t);
          try {
            const intent = await confirmedPlanOverMcp({ ide, person });
            let run =
              (await call<{ run: RunView }>(ide, "flow", { flowName: "deliver", intent: intent.runId })).run;
            run = await implementFilesOverMcp(ide, run, dir, {
              "src/t1.ts": "export const t1 = 1;\nexport const one = t1;\n",
              "README.md": "# demo\nnew line\n",
            }, "Added src/t1.ts and updated the README.");
            assert.equal(run.pendingAction?.kind, "user_ask_confirmation");
            const { page } = await openStudio(browserPerson, served);
            await openRun(page, run.runId);
            const form = page.getByRole("form", { name: "Answer: tasks/review" });

            await step("the Run reads as its plan and shows its own id", async () => {
              await shown(page.getByRole("heading", { name: "three tasks", level: 2 }), "the plan's title");
              assert.match(
                (await page.locator("dl.facts").textContent()) ?? "",
                new RegExp(`Run${run.runId}`),
              );
            });

            await step(
              "the review: task, criteria, summary, verify, files, per-file diff; no internal field",
              async () => {
                await shown(
                  form.getByRole("heading", { name: "Review the task's changes" }),
                  "the review's title",
                );
                const task = form.getByRole("region", { name: /Task T1/ });
                assert.match((await task.textContent()) ?? "", /Task T1 Task T1/);
                const criteria = form.getByRole("list", { name: "Acceptance criteria of R1" });
                assert.equal(await criteria.textContent(), "a test proves it");
                assert.match((await task.textContent()) ?? "", /R1 Every report has an Export button/);
                const summary = form.getByRole("region", { name: "What the agent says it did" });
                assert.match(
                  (await summary.textContent()) ?? "",
                  /Added src\/t1\.ts and updated the README\./,
                );
                const verify = form.getByRole("region", { name: "Verify" });
                assert.match((await verify.textContent()) ?? "", /passed \(exit 0\) in \d+ ms · sh -c /);
                const files = form.getByRole("region", { name: "Files changed (2)" });
                assert.match(
                  (await files.locator("ul.files").textContent()) ?? "",
                  /README\.md modified\s*\+1 −1/,
                );
                const diff = form.getByRole("region", { name: "Diff" });
                assert.deepEqual(
                  await diff.locator("details.file-diff").evaluateAll((all) =>
                    all.map((
                      element,
                    ) => [element.getAttribute("data-path"), element.hasAttribute("open")])
                  ),
                  [["README.md", true], ["src/t1.ts", true]],
                );
                const readme = diff.locator('details[data-path="README.md"]');
                assert.equal(await readme.locator("del").textContent(), "old line");
                assert.equal(await readme.locator("ins").textContent(), "new line");
                assert.equal(
                  (await readme.locator(".line.del").textContent())?.replace(/\s+/g, " ").trim(),
                  "2−old line",
                  "a removed line: its old number, its sign, its text",
                );
                assert.equal(
                  (await readme.locator(".line.add").textContent())?.replace(/\s+/g, " ").trim(),
                  "2+new line",
                );
                const background = (line: "add" | "del") =>
                  readme.locator(`.line.${line}`).evaluate((element) =>
                    (globalThis as unknown as {
                      getComputedStyle(element: unknown): { backgroundColor: string };
                    }).getComputedStyle(element).backgroundColor
                  );
                const colours = [await background("add"), await background("del")];
                assert.notEqual(colours[0], colours[1], "added and removed lines are coloured apart");
                assert.ok(!colours.includes("rgba(0, 0, 0, 0)"), `both coloured: ${colours}`);
                assert.doesNotMatch((await form.textContent()) ?? "", /Cut bytes|cutBytes|Please confirm/);
              },
            );

            await step("the review sits beside the tasks board; a file's diff folds away", async () => {
              const board = page.getByRole("region", { name: "Tasks" });
              const [formBox, boardBox] = [await form.boundingBox(), await board.boundingBox()];
              assert.ok(
                formBox && boardBox && boardBox.x >= formBox.x + formBox.width - 1,
                "the board is beside it",
              );
              assert.ok(boardBox!.y < formBox!.y + formBox!.height, "at the same height");
              await screenshot(page, "deliver-review");
              const readme = form.locator('details[data-path="README.md"]');
              await readme.locator(":scope > summary").click();
              assert.equal(await readme.evaluate((element) => element.hasAttribute("open")), false);
              assert.equal(await readme.locator("ins").isVisible(), false);
            });

            await step(
              "the person confirms in Studio; the next task's decision names it and shows what failed",
              async () => {
                await form.getByRole("button", { name: "Confirm" }).click();
                run = await waitForRun(
                  person,
                  run.runId,
                  "T2's agent call",
                  (now) => now.pendingAgentCall !== undefined && now.list?.current === "T2",
                );
                const failing =
                  "not ok 1 - t2 exports two\n  ---\n  duration_ms: 1.5\n  error: 'expected 2, got 3'\n" +
                  "  ...\n# tests 1\n# pass 0\n# fail 1\n# duration_ms 326.6\n";
                for (let attempt = 1; attempt <= 3; attempt++) {
                  run = await implementFilesOverMcp(ide, run, dir, {
                    "FAILING": failing,
                    "src/t2.ts": "export const t2 = 3;\n",
                  }, "tried");
                }
                const decide = page.getByRole("form", { name: "Answer: tasks/decide" });
                await shown(decide.getByRole("heading", { name: "Verify keeps failing" }), "the decision");
                assert.match(
                  (await decide.getByRole("region", { name: /Task T2/ }).textContent()) ?? "",
                  /attempt 3/,
                );
                const excerpt = decide.getByLabel("What failed");
                assert.match(
                  (await excerpt.textContent()) ?? "",
                  /not ok 1 - t2 exports two\n\s+error: 'expected 2, got 3'/,
                );
                assert.doesNotMatch((await excerpt.textContent()) ?? "", /duration_ms/);
                await screenshot(page, "deliver-decision");
              },
            );
          } finally {
            await closeClient(ide);
            await closeClient(person);
            await browserPerson.close();
          }
        }),
    );
  },
});
