/**
 * A running command's output as it arrives: readable on every endpoint as the resource
 * `weft://runs/{runId}/command`, notified to its subscribers while the command still runs, and `null` once the
 * Run has recorded the result, which stays as it was. Its growth is told at most once per interval however
 * fast the output comes.
 */
import assert from "node:assert/strict";
import type { RunningCommandOutput } from "../../src/engine/command_output.ts";
import type { RunView } from "../../src/engine/views.ts";
import { LiveOutput } from "../../src/commands/live_output.ts";
import { call, closeClient, mcpClient, withServedProject } from "../support/service.ts";
import { Inbox, readJson } from "../support/notifications.ts";
import { commandEnd, commandFiles, ended, startRun, STEPWISE } from "./support.ts";

type Read = { command: RunningCommandOutput | null };

Deno.test("a running command's output is notified and readable on every endpoint before the command ends; then the stored result stands", async () => {
  await withServedProject({
    trusted: true,
    files: commandFiles("stepwise", { run: ["sh", "-c", STEPWISE] }),
  }, async (served) => {
    const cli = await mcpClient(served, "/internal/mcp");
    const agent = await mcpClient(served, "/mcp");
    const inbox = new Inbox(agent);
    try {
      const run = await startRun(cli, "stepwise");
      const uri = `weft://runs/${run.runId}/command`;
      await agent.subscribeResource({ uri });
      await Deno.writeTextFile(`${served.projectDir}/start`, "");

      // Each read follows a notification: the output is told, not found by asking again and again.
      let from = 0;
      let live: RunningCommandOutput | null = null;
      while (!live?.stdout.text || !live.stderr.text) {
        from = await inbox.until(`updated ${uri}`, from) + 1;
        live = (await readJson<Read>(agent, uri)).command;
      }
      assert.deepEqual(live.stdout, { text: "first\n", cutBytes: 0 });
      assert.deepEqual(live.stderr, { text: "warning\n", cutBytes: 0 });
      assert.deepEqual(live.run, ["sh", "-c", STEPWISE]);
      const { run: now } = await call<{ run: RunView }>(cli, "get_run", { runId: run.runId });
      assert.equal(now.pendingCommand?.phase, "running");
      assert.equal(live.commandId, now.pendingCommand?.id);
      assert.ok(!Number.isNaN(Date.parse(live.startedAt)));
      // The internal endpoints read the same.
      assert.deepEqual((await readJson<Read>(cli, uri)).command?.stdout, live.stdout);

      await Deno.writeTextFile(`${served.projectDir}/go`, "");
      assert.equal((await ended(cli, run.runId)).status, "completed");
      await inbox.until(`updated ${uri}`, from);
      assert.deepEqual(await readJson<Read>(agent, uri), { command: null });
      const { end } = await commandEnd(cli, run.runId);
      assert.deepEqual(end?.stdout, { text: "first\nsecond\n", cutBytes: 0 });
      assert.deepEqual(end?.stderr, { text: "warning\n", cutBytes: 0 });
    } finally {
      await closeClient(agent);
      await closeClient(cli);
    }
  });
});

Deno.test("the command resource of a Run running no command reads null", async () => {
  await withServedProject({
    trusted: true,
    files: commandFiles("quick", { run: ["true"] }),
  }, async (served) => {
    const client = await mcpClient(served, "/internal/mcp");
    try {
      const run = await ended(client, (await startRun(client, "quick")).runId);
      assert.deepEqual(await readJson(client, `weft://runs/${run.runId}/command`), { command: null });
    } finally {
      await closeClient(client);
    }
  });
});

Deno.test("output growth is told at most once per interval: a burst of chunks is one notice now and one at the interval's end", async () => {
  let clock = 1_000;
  const live = new LiveOutput({ intervalMs: 250, now: () => clock });
  const told: string[] = [];
  const stop = live.onOutput((runId) => told.push(runId));
  try {
    const command = live.begin("run_a", "cmd_1", ["make"]);
    assert.deepEqual(told, ["run_a"], "the start is told");
    clock += 300;
    for (let i = 0; i < 1_000; i++) {
      command.stdout.push(new TextEncoder().encode(`line ${i}\n`));
      command.grew();
    }
    assert.deepEqual(
      told,
      ["run_a", "run_a"],
      "a thousand chunks after a quiet interval: told once, at once",
    );
    const timerFired = new Promise<void>((resolve) => {
      const stopWaiting = live.onOutput(() => {
        stopWaiting();
        resolve();
      });
    });
    clock += 250;
    await timerFired;
    assert.equal(told.length, 3, "the rest of the burst: told once more, at the interval's end");
    assert.match(live.outputOf("run_a")!.stdout.text, /line 999\n$/);
    live.end("run_a", "cmd_other");
    assert.ok(live.outputOf("run_a"), "another command's end leaves this one");
    live.end("run_a", "cmd_1");
    assert.equal(live.outputOf("run_a"), undefined);
    assert.equal(told.length, 4, "the end is told");
  } finally {
    stop();
  }
});
