/**
 * A Run's tasks as Studio's board, in a real browser: each task in the column of its status, the same
 * statuses `weft tasks --json` prints and `weft://runs/{runId}/tasks` reads; a task opens to its last
 * verify's output and the diff of what it changed; a task ended elsewhere moves column without a reload.
 */

import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { eventually } from "../support/deadline.ts";
import { closeClient, mcpClient, runWeft, withServedProject } from "../support/service.ts";
import { readJson } from "../support/notifications.ts";
import { BOARD_PROJECT, driveBoard, DRIVEN, endTask, taskStatuses } from "../support/task_board.ts";
import { boardTasks, openVerify } from "./board_task.ts";
import type { RunTasks } from "../../src/engine/run_tasks.ts";
import { browserSteps, newPerson, openStudio, screenshot, shown, withBrowser } from "./support.ts";

const COLUMN_OF: Record<string, string> = {
  pending: "Pending",
  running: "Running",
  done: "Done",
  failed: "Failed or blocked",
  blocked: "Failed or blocked",
  skipped: "Skipped",
};

const expectedBoard = (statuses: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(statuses).map(([id, status]) => [id, { column: COLUMN_OF[status], status }]),
  );

Deno.test({
  name:
    "studio: a Run's tasks as a board, the statuses of weft tasks and the resource, each with its verify and diff",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await withServedProject(BOARD_PROJECT, (served) =>
      withBrowser(async (browser) => {
        const person = await newPerson(browser);
        const client = await mcpClient(served, "/internal/mcp");
        const step = browserSteps(t);
        try {
          const run = await driveBoard(client, served.projectDir);
          const { page } = await openStudio(person, served);
          await page.evaluate((hash) => {
            (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
          }, `#/runs/${run.runId}`);
          const board = page.getByRole("region", { name: "Tasks" });

          await step("the board shows the statuses weft tasks and the resource show", async () => {
            await shown(board.locator('details.task[data-task="e"]'), "the last task");
            const cli = await runWeft(["tasks", run.runId, "--json"], { cwd: served.projectDir });
            assert.equal(cli.code, 0, cli.stderr);
            const printed = taskStatuses(JSON.parse(cli.stdout));
            const resource = taskStatuses(await readJson<RunTasks>(client, `weft://runs/${run.runId}/tasks`));
            assert.deepEqual(printed, DRIVEN);
            assert.deepEqual(resource, printed);
            assert.deepEqual(await boardTasks(board), expectedBoard(printed));
            await screenshot(page, "task-board");
          });

          await step("a task opens to its last verify's output and the diff of what it changed", async () => {
            const { task: b, line, output } = await openVerify(board, "b", "stderr");
            assert.match(line, /failed \(exit 3\)/);
            assert.equal(output, "broken 2");
            const diff = b.getByRole("region", { name: "Diff" });
            assert.equal((await diff.locator("del").textContent())?.replace(/^−\s*/, "").trim(), "1");
            assert.equal((await diff.locator("ins").textContent())?.replace(/^\+\s*/, "").trim(), "2");
            assert.match((await b.locator("ul.files").textContent()) ?? "", /count\s+modified/);
            const c = board.locator('details.task[data-task="c"]');
            await c.locator(":scope > summary").click();
            await shown(c.locator("p.reason"), "why c is blocked");
            assert.match((await c.locator("p.reason").textContent()) ?? "", /"b"/);
            await shown(c.getByText("Not begun."), "that c never began");
            await screenshot(page, "task-board-open");
          });

          await step("a task the person ends elsewhere moves column while the page stays", async () => {
            await endTask(client, run, "done");
            const after = { ...DRIVEN, d: "done", e: "running" };
            await eventually("d to show as done", async () => {
              const now = await boardTasks(board);
              return isDeepStrictEqual(now, expectedBoard(after)) || undefined;
            });
            const resource = await readJson<RunTasks>(client, `weft://runs/${run.runId}/tasks`);
            assert.deepEqual(taskStatuses(resource), after);
          });
        } finally {
          await closeClient(client);
          await person.close();
        }
      }));
  },
});
