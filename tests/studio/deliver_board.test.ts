/**
 * A real `deliver` Run's tasks on Studio's board, in a real browser: the IDE's agent (an MCP SDK client)
 * implements the tasks of a confirmed three-task plan in a git repository, the project's verify command fails
 * the first attempt of T1 and passes the second, the person confirms T1 and T2 waits for review. The board,
 * `weft tasks` and `weft://runs/{runId}/tasks` show the same statuses, and each task opens to its verify's
 * output and the diff of what it changed.
 */

import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import type { RunView } from "../../src/engine/views.ts";
import type { RunTasks } from "../../src/engine/run_tasks.ts";
import type { Client } from "../support/sdk_test_client.ts";
import { eventually } from "../support/deadline.ts";
import { confirmedPlanOverMcp } from "../support/deliver_mcp.ts";
import { personGit } from "../support/git.ts";
import { readJson } from "../support/notifications.ts";
import { call, closeClient, mcpClient, runWeft, withServedProject } from "../support/service.ts";
import { taskStatuses } from "../support/task_board.ts";
import { boardTasks, openVerify } from "./board_task.ts";
import { waitForRun } from "../model/support.ts";
import { answer, claim, complete } from "../agent/support.ts";
import {
  browserSteps,
  type Locator,
  newPerson,
  openStudio,
  screenshot,
  shown,
  withBrowser,
} from "./support.ts";

/** The project's verify: fails while a source file says BROKEN. */
const VERIFY =
  'for f in src/*.ts; do if grep -q BROKEN "$f"; then echo "FAIL $f is broken"; exit 1; fi; done; echo ok';

/** The agent implements the current task by writing `file`; resolves once the service ran its verify. */
async function implement(
  client: Client,
  run: RunView,
  projectDir: string,
  file: string,
  text: string,
): Promise<RunView> {
  const claimed = await claim(client, run, "ide-agent");
  await Deno.mkdir(`${projectDir}/src`, { recursive: true });
  await Deno.writeTextFile(`${projectDir}/${file}`, text);
  const after = await complete(client, claimed, { outcome: "implemented", summary: `wrote ${file}` });
  return await waitForRun(
    client,
    after.runId,
    "verified",
    (now) => now.status !== "running" && !now.pendingCommand,
  );
}

/** Each task's status as the board's badges say it. */
async function boardStatuses(board: Locator): Promise<Record<string, string>> {
  return Object.fromEntries(Object.entries(await boardTasks(board)).map(([id, task]) => [id, task.status]));
}

Deno.test({
  name:
    "studio: a deliver Run's board shows what weft tasks and the resource show, with verify output and diffs",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await withServedProject({
      files: {
        "weft.json": JSON.stringify({ commands: { verify: ["sh", "-c", VERIFY] } }),
        "README.md": "# demo\n",
      },
      setup(dir) {
        personGit(dir, "init", "-q");
        personGit(dir, "add", "-A");
        personGit(dir, "commit", "-q", "-m", "start");
      },
      trusted: true,
    }, (served) =>
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
          run = await implement(ide, run, dir, "src/t1.ts", "export const t1 = BROKEN;\n");
          assert.equal(
            run.pendingAgentCall?.agentId,
            "implementer",
            "the failed verify went back to the agent",
          );
          run = await implement(ide, run, dir, "src/t1.ts", "export const t1 = 1;\n");
          run = await answer(person, run, { isConfirmed: true });
          run = await implement(ide, run, dir, "src/t2.ts", "export const t2 = 2;\n");
          assert.equal(run.pendingAction?.kind, "user_ask_confirmation", "T2 waits for the person's review");

          const { page } = await openStudio(browserPerson, served);
          await page.evaluate((hash) => {
            (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
          }, `#/runs/${run.runId}`);
          const board = page.getByRole("region", { name: "Tasks" });
          const expected = { T1: "done", T2: "running", T3: "pending" };

          await step("the board, weft tasks and the resource show the same statuses", async () => {
            await shown(board.locator('details.task[data-task="T3"]'), "the last task");
            const cli = await runWeft(["tasks", "--json"], { cwd: dir });
            assert.equal(cli.code, 0, cli.stderr);
            const printed = JSON.parse(cli.stdout) as RunTasks;
            assert.equal(printed.runId, run.runId, "without a Run named, the newest deliver Run");
            const resource = await readJson<RunTasks>(person, `weft://runs/${run.runId}/tasks`);
            assert.deepEqual(taskStatuses(printed), expected);
            assert.deepEqual(taskStatuses(resource), expected);
            assert.deepEqual(await boardStatuses(board), expected);
            assert.equal(printed.list?.items[0].attempts, 2);
            await screenshot(page, "deliver-board");
          });

          await step("T1 opens to its passing verify and its diff; T2 to the file it added", async () => {
            const { task: t1, line, output } = await openVerify(board, "T1", "stdout");
            assert.match(line, /passed \(exit 0\)/);
            assert.equal(output, "ok");
            const diff = t1.getByRole("region", { name: "Diff" });
            assert.match((await diff.locator("ins").allTextContents()).join("\n"), /export const t1 = 1;/);
            assert.doesNotMatch(
              (await diff.textContent()) ?? "",
              /BROKEN/,
              "only what it left, not its attempts",
            );
            const t2 = board.locator('details.task[data-task="T2"]');
            await t2.locator(":scope > summary").click();
            await shown(t2.locator("ul.files"), "T2's files");
            assert.match((await t2.locator("ul.files").textContent()) ?? "", /src\/t2\.ts\s+added/);
            await screenshot(page, "deliver-board-open");
          });

          await step("the person confirms T2 elsewhere: the board follows", async () => {
            run = await answer(person, run, { isConfirmed: true });
            const after = { T1: "done", T2: "done", T3: "running" };
            await eventually("T2 to show as done", async () =>
              isDeepStrictEqual(await boardStatuses(board), after) || undefined);
          });
        } finally {
          await closeClient(ide);
          await closeClient(person);
          await browserPerson.close();
        }
      }));
  },
});
