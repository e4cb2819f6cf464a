/**
 * `weft tasks`: a Run's tasks against a real `weft serve` (the table, `--json` as the tasks resource reads,
 * what it says without a list or without a deliver Run), and the table itself: ids whole in a narrow
 * terminal, the last verify's outcome, exit code and last line.
 */

import assert from "node:assert/strict";
import { call, closeClient, mcpClient, runWeft, withServedProject } from "../support/service.ts";
import { readJson } from "../support/notifications.ts";
import { BOARD_PROJECT, driveBoard, DRIVEN, taskStatuses } from "../support/task_board.ts";
import { lastVerify, taskTable } from "../../src/cli/run_views/task_table.ts";
import { confirmedPlanOverMcp } from "../support/deliver_mcp.ts";
import type { ListItemView, ListView, RunView } from "../../src/engine/views.ts";

const PLAIN = { isTerminal: () => false } as unknown as typeof Deno.stdout;

Deno.test("weft tasks shows each task's status, attempts and last verify, and --json reads as the resource", async () => {
  await withServedProject(BOARD_PROJECT, async (served) => {
    const cwd = served.projectDir;
    const client = await mcpClient(served, "/internal/mcp");
    try {
      const none = await runWeft(["tasks", "--json"], { cwd });
      assert.equal(none.code, 1, "no Run named and no deliver Run");
      const error = JSON.parse(none.stdout).error;
      assert.equal(error.code, "NOT_FOUND");
      assert.match(error.message, /no deliver Run yet/);
      assert.match(error.fix, /weft runs/);

      const run = await driveBoard(client, cwd);
      const shown = await runWeft(["tasks", run.runId], { cwd, env: { COLUMNS: "100" } });
      assert.equal(shown.code, 0, shown.stderr);
      const lines = shown.stdout.split("\n");
      assert.match(lines[0], new RegExp(`^${run.runId}  board  waiting$`));
      assert.equal(lines[1], "5 tasks: 1 pending, 1 running, 1 done, 1 failed, 1 blocked");
      const row = (id: string) => lines.find((line) => line.startsWith(`${id}  `)) ?? "";
      // A task the person's answer ended says where it was given.
      assert.match(
        row("a"),
        /^a\s+Write the parser\s+done · in the terminal\s+1\s+passed · exit 0 · check 1$/,
      );
      assert.match(
        row("b"),
        /^b\s+Check the input\s+failed · in the terminal\s+1\s+failed · exit 3 · broken 2$/,
      );
      assert.match(row("c"), /^c\s+Report the errors\s+blocked\s+0\s+\S/, "a blocked task says why");
      assert.match(row("d"), /^d\s+Document it\s+running\s+1\s+passed · exit 0 · check 3$/);
      assert.match(row("e"), /^e\s+Release it\s+pending\s+0\s+–$/);
      assert.match(shown.stdout, new RegExp(`answer with: .*attach ${run.runId}`));

      const json = await runWeft(["tasks", run.runId, "--json"], { cwd });
      assert.equal(json.code, 0, json.stderr);
      const printed = JSON.parse(json.stdout);
      assert.deepEqual(taskStatuses(printed), DRIVEN);
      const { run: now } = await call<{ run: RunView }>(client, "get_run", { runId: run.runId });
      assert.deepEqual(printed, await readJson(client, `weft://runs/${run.runId}/tasks`));
      assert.deepEqual(printed.list, now.list);

      const missing = await runWeft(["tasks", "run_missing", "--json"], { cwd });
      assert.equal(missing.code, 1);
      assert.equal(JSON.parse(missing.stdout).error.code, "NOT_FOUND");
      const usage = await runWeft(["tasks", "a", "b"], { cwd });
      assert.equal(usage.code, 2);
    } finally {
      await closeClient(client);
    }
  });
});

Deno.test("weft tasks without a Run shows the newest deliver Run's tasks, not another Run's list", async () => {
  await withServedProject({ files: { "README.md": "# demo\n" } }, async (served) => {
    const cwd = served.projectDir;
    const ide = await mcpClient(served, "/mcp");
    const person = await mcpClient(served, "/internal/mcp");
    try {
      const intent = await confirmedPlanOverMcp({ ide, person });
      const older = await call<{ run: RunView }>(ide, "flow", { flowName: "deliver", intent: intent.runId });
      const { run } = await call<{ run: RunView }>(ide, "flow", {
        flowName: "deliver",
        intent: intent.runId,
      });
      assert.notEqual(run.runId, older.run.runId);
      const shown = await runWeft(["tasks"], { cwd, env: { COLUMNS: "120" } });
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(
        shown.stdout,
        new RegExp(`^${run.runId}  deliver  waiting\n3 tasks: 2 pending, 1 running\n`),
      );
      assert.match(shown.stdout, /\nT1\s+Task T1\s+running\s+1\s+–\n/);
      assert.match(shown.stdout, /\nT3\s+Task T3\s+pending\s+0\s+–/);
      assert.doesNotMatch(shown.stdout, /answer with/, "it waits for the agent, not the person");
      const json = JSON.parse((await runWeft(["tasks", "--json"], { cwd })).stdout);
      assert.equal(json.runId, run.runId);
      assert.deepEqual(taskStatuses(json), { T1: "running", T2: "pending", T3: "pending" });
    } finally {
      await closeClient(ide);
      await closeClient(person);
    }
  });
});

function item(id: string, extra: Partial<ListItemView> = {}): ListItemView {
  return { id, title: `Task ${id}`, status: "pending", attempts: 0, dependsOn: [], ...extra };
}

function list(items: ListItemView[]): ListView {
  const counts = { pending: 0, running: 0, done: 0, failed: 0, skipped: 0, blocked: 0 };
  for (const entry of items) counts[entry.status]++;
  return { stageName: "tasks", counts, stopped: false, items };
}

Deno.test("the task table keeps a wide id whole in a narrow terminal and cuts only the verify's line", () => {
  const previous = Deno.env.get("COLUMNS");
  Deno.env.set("COLUMNS", "60");
  try {
    const wide = "task-" + "x".repeat(50);
    const text = taskTable(
      list([
        item(wide, {
          status: "failed",
          attempts: 3,
          verify: {
            passed: false,
            outcome: "failed",
            exitCode: 2,
            summary: "first line\n" + "the last line of a long failing output ".repeat(4),
            at: "2026-01-01T00:00:00.000Z",
          },
        }),
        item("t2", {
          status: "running",
          attempts: 1,
          verify: { passed: false, outcome: "timed_out", exitCode: null, summary: "", at: "" },
        }),
      ]),
      PLAIN,
    );
    const [header, first, second] = text.split("\n");
    assert.match(header, /^TASK\s+TITLE\s+STATUS\s+ATTEMPTS\s+LAST VERIFY$/);
    assert.ok(first.startsWith(`${wide}  `), "the id is whole");
    assert.match(
      first,
      / {2}failed · exit 2 · the l…$/,
      "the verify's last line, cut to the narrowest verify column",
    );
    assert.doesNotMatch(first, /first line/);
    assert.match(second, /^t2\s+Task t2\s+running\s+1\s+failed · timed out$/);
  } finally {
    if (previous === undefined) Deno.env.delete("COLUMNS");
    else Deno.env.set("COLUMNS", previous);
  }
});

Deno.test("weft tasks: a failed verify's line is the test that failed, not the runner's timing", () => {
  const summary = "not ok 1 - slugify lowercases\n  error: |-\n…\n# tests 2\n# pass 1\n# fail 1";
  const item = {
    id: "T1",
    title: "Slugify",
    status: "running" as const,
    attempts: 1,
    dependsOn: [],
    verify: { passed: false, outcome: "failed", exitCode: 1, summary, at: "" },
  };
  assert.equal(lastVerify(item, 80, PLAIN), "failed · exit 1 · not ok 1 - slugify lowercases");
  const passed = {
    ...item,
    verify: { ...item.verify, passed: true, outcome: "passed", exitCode: 0, summary: "a\nok" },
  };
  assert.equal(lastVerify(passed, 80, PLAIN), "passed · exit 0 · ok");
});
