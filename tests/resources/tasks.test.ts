/**
 * `weft://runs/{runId}/tasks` end to end: an IDE's agent on /mcp subscribes to a Run's tasks and is told as
 * they change while the person works the Run from /internal/mcp; what it reads is the Run's list as
 * `get_run` returns it; a step that leaves the tasks as they were tells nothing.
 */

import assert from "node:assert/strict";
import { call, closeClient, mcpClient, withServedProject } from "../support/service.ts";
import { Inbox, readJson } from "../support/notifications.ts";
import {
  BOARD_PROJECT,
  driveBoard,
  DRIVEN,
  endTask,
  taskStatuses,
  untilAsked,
} from "../support/task_board.ts";
import type { RunView } from "../../src/engine/views.ts";
import type { RunTasks } from "../../src/engine/run_tasks.ts";
import { listFlow } from "../support/list_workflows.ts";
import { workflowFiles } from "../support/workflows.ts";

Deno.test("a subscribed IDE is told as a Run's tasks change, and reads them as get_run has them", async () => {
  await withServedProject(BOARD_PROJECT, async (served) => {
    const cli = await mcpClient(served, "/internal/mcp");
    const agent = await mcpClient(served, "/mcp");
    const inbox = new Inbox(agent);
    try {
      const templates = await agent.listResourceTemplates();
      assert.ok(templates.resourceTemplates.some((t) => t.uriTemplate === "weft://runs/{runId}/tasks"));
      let uri = "";
      let run = await driveBoard(cli, served.projectDir, async (started) => {
        uri = `weft://runs/${started.runId}/tasks`;
        await agent.subscribeResource({ uri });
      });
      await inbox.until(`updated ${uri}`);
      const tasks = await readJson<RunTasks>(agent, uri);
      assert.deepEqual(taskStatuses(tasks), DRIVEN);
      assert.equal(tasks.runId, run.runId);
      assert.equal(tasks.flowName, "board");
      assert.deepEqual(tasks.list, run.list, "the resource holds the list get_run returns");
      const b = tasks.list!.items.find((item) => item.id === "b")!;
      assert.deepEqual({ ...b.verify, at: "" }, {
        passed: false,
        outcome: "failed",
        exitCode: 3,
        summary: "check 2\nbroken 2",
        at: "",
      });

      // d ends done: the notification after it carries the new status.
      const before = inbox.received.length;
      await endTask(cli, run, "done");
      run = await untilAsked(cli, run.runId, "e");
      await inbox.until(`updated ${uri}`, before);
      assert.deepEqual(taskStatuses(await readJson<RunTasks>(agent, uri)), {
        ...DRIVEN,
        d: "done",
        e: "running",
      });
    } finally {
      await closeClient(agent);
      await closeClient(cli);
    }
  });
});

Deno.test("a Run's tasks: unknown Runs are refused, and a new attempt and a cancel are told", async () => {
  const manifest = listFlow([{ id: "a" }, { id: "b" }]);
  await withServedProject({ files: workflowFiles(manifest) }, async (served) => {
    const cli = await mcpClient(served, "/internal/mcp");
    const agent = await mcpClient(served, "/mcp");
    const inbox = new Inbox(agent);
    try {
      for (const read of [agent.readResource.bind(agent), agent.subscribeResource.bind(agent)]) {
        await assert.rejects(
          read({ uri: "weft://runs/run_nope/tasks" }),
          (error: Error) => /Resource not found/.test(error.message),
        );
      }
      await assert.rejects(
        agent.readResource({ uri: "weft://runs/run_x/tasks?timeline=true" }),
        (error: Error) => /names no weft resource/.test(error.message),
      );
      const { run } = await call<{ run: RunView }>(cli, "flow", { flowName: "review", intent: "two items" });
      const uri = `weft://runs/${run.runId}/tasks`;
      await agent.subscribeResource({ uri });
      assert.equal((await readJson<RunTasks>(agent, uri)).list?.current, "a");

      await call(cli, "answer_ask", {
        runId: run.runId,
        actionId: run.pendingAction!.id,
        answer: [{ questionId: "end", isSkipped: false, answer: "again" }],
      });
      const told = await inbox.until(`updated ${uri}`);
      assert.equal((await readJson<RunTasks>(agent, uri)).list?.items[0].attempts, 2);

      await call(cli, "cancel_run", { runId: run.runId });
      await inbox.until(`updated ${uri}`, told + 1);
      assert.equal((await readJson<RunTasks>(agent, uri)).status, "cancelled");
    } finally {
      await closeClient(agent);
      await closeClient(cli);
    }
  });
});
