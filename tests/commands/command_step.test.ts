/**
 * Command steps end to end, through the real service: the outcome follows the exit (passed, failed), the
 * result lands in the stage state and the timeline, only the named variables reach the command (a secret
 * set around the service does not), a missing program fails the Run classified, a project command is named
 * in weft.json, cancelling or stopping the service ends the whole group, and commands past the concurrency
 * bound wait their turn.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import {
  call,
  closeClient,
  mcpClient,
  runWeft,
  serve,
  tempProject,
  trustProject,
  withServedProject,
} from "../support/service.ts";
import { eventually } from "../support/deadline.ts";
import { waitForRun } from "../model/support.ts";
import {
  alive,
  commandEnd,
  commandFiles,
  committedResult,
  DAEMON,
  ended,
  pidsIn,
  startRun,
} from "./support.ts";

const SECRET = "s3cret-value-around-the-service";

Deno.test("a trusted command step runs: exit 0 passes, non-zero or a signal fails, the result is in the timeline, only named variables reach it", async () => {
  await withServedProject({
    trusted: true,
    env: { WEFT_TEST_SECRET: SECRET, NAMED_VAR: "named-value" },
    files: {
      ...commandFiles("green", { run: ["sh", "-c", "echo all good"] }),
      ...commandFiles("red", { run: ["sh", "-c", "echo broken >&2; exit 4"] }),
      ...commandFiles("killed", { run: ["sh", "-c", "kill -KILL $$"] }),
      ...commandFiles("environment", { run: ["env"], env: ["NAMED_VAR"] }),
      ...commandFiles("missing", { run: ["weft-no-such-program"] }),
      ...commandFiles("named", { run: "test", cwd: "sub" }),
      "sub/marker.txt": "in sub\n",
      "weft.json": JSON.stringify({ commands: { test: ["sh", "-c", "cat marker.txt"] } }),
    },
  }, async (served) => {
    const client = await mcpClient(served, "/internal/mcp");
    try {
      const green = await ended(client, (await startRun(client, "green")).runId);
      assert.equal(green.status, "completed");
      const greenEnd = await commandEnd(client, green.runId);
      assert.equal(greenEnd.outcome, "passed");
      assert.equal(greenEnd.end?.exitCode, 0);
      assert.equal(typeof greenEnd.end?.durationMs, "number");
      const started = greenEnd.timeline.find((event) => event.type === "command_started");
      assert.deepEqual(started?.run, ["sh", "-c", "echo all good"]);
      const greenResult = await committedResult(client, "green");
      assert.deepEqual(greenResult.stdout, { text: "all good\n", cutBytes: 0 });

      const red = await ended(client, (await startRun(client, "red")).runId);
      const redEnd = await commandEnd(client, red.runId);
      assert.equal(redEnd.outcome, "failed");
      assert.equal(redEnd.end?.exitCode, 4);
      assert.equal((await committedResult(client, "red")).stderr.text, "broken\n");
      const shown = await runWeft(["run", red.runId], { cwd: served.projectDir, env: { NO_COLOR: "1" } });
      assert.match(shown.stdout, /✗ verify\/run: failed \(exit 4, \d+ ms\)\n {4}stderr:\n {4}│ broken/);

      // A command a signal ended has no exit code: that is no pass.
      const killed = await ended(client, (await startRun(client, "killed")).runId);
      const killedEnd = await commandEnd(client, killed.runId);
      assert.equal(killedEnd.outcome, "failed");
      assert.equal(killedEnd.end?.exitCode, null);
      assert.equal(killedEnd.end?.signal, "SIGKILL");

      await ended(client, (await startRun(client, "environment")).runId);
      const envText = (await committedResult(client, "environment")).stdout.text;
      assert.match(envText, /^NAMED_VAR=named-value$/m);
      assert.doesNotMatch(envText, new RegExp(SECRET));
      assert.doesNotMatch(envText, /WEFT_TEST_SECRET/);

      const missing = await ended(client, (await startRun(client, "missing")).runId);
      assert.equal(missing.status, "failed");
      assert.equal(missing.lastError?.code, "COMMAND_UNAVAILABLE");
      assert.match(missing.lastError!.message, /"weft-no-such-program" was not found/);

      const named = await ended(client, (await startRun(client, "named")).runId);
      assert.equal((await commandEnd(client, named.runId)).outcome, "passed");
      assert.equal((await committedResult(client, "named")).stdout.text, "in sub\n");
    } finally {
      await closeClient(client);
    }
  });
});

Deno.test("cancelling a Run during its command ends the command's whole process group, and what left it", async () => {
  let pids: number[] = [];
  await withServedProject({
    trusted: true,
    files: commandFiles("slow", { run: ["sh", "-c", `${DAEMON}sleep 1000 & echo $$ $! > pids; wait`] }),
  }, async (served) => {
    const client = await mcpClient(served, "/internal/mcp");
    try {
      const run = await startRun(client, "slow");
      pids = [...await pidsIn(served.projectDir, "pids"), ...await pidsIn(served.projectDir, "daemon")];
      const waiting = await waitForRun(
        client,
        run.runId,
        "running its command",
        (view) => view.pendingCommand?.phase === "running",
      );
      assert.equal(waiting.status, "waiting");
      await call(client, "cancel_run", { runId: run.runId });
      await eventually(
        "the command's processes to be gone",
        () => pids.every((pid) => !alive(pid)) || undefined,
      );
      assert.equal((await ended(client, run.runId)).status, "cancelled");
    } finally {
      await closeClient(client);
      for (const pid of pids.filter(alive)) Deno.kill(pid, "SIGKILL");
    }
  });
});

Deno.test("commands past the concurrency bound wait their turn, then run", async () => {
  await withServedProject({
    trusted: true,
    files: commandFiles("gate", {
      run: ["sh", "-c", "while [ ! -f open ]; do sleep 0.05; done"],
    }),
  }, async (served) => {
    const client = await mcpClient(served, "/internal/mcp");
    try {
      const runs: RunView[] = [];
      for (let i = 0; i < 3; i++) runs.push(await startRun(client, "gate"));
      const phases = await eventually("two commands running and one waiting for a slot", async () => {
        const views = await Promise.all(
          runs.map((run) =>
            call<{ run: RunView }>(client, "get_run", { runId: run.runId }).then((r) => r.run)
          ),
        );
        const phases = views.map((view) => view.pendingCommand?.phase).sort();
        return phases.filter((phase) => phase === "running").length === 2 ? phases : undefined;
      });
      assert.deepEqual(phases, ["available", "running", "running"]);
      await Deno.writeTextFile(`${served.projectDir}/open`, "");
      for (const run of runs) assert.equal((await ended(client, run.runId)).status, "completed");
    } finally {
      await closeClient(client);
    }
  });
});

Deno.test("stopping the service ends its commands' process groups, and what left them", async () => {
  const dir = await tempProject(
    commandFiles("slow", { run: ["sh", "-c", `${DAEMON}sleep 1000 & echo $$ $! > pids; wait`] }),
  );
  const configHome = await Deno.makeTempDir({ prefix: "weft-user-" });
  let pids: number[] = [];
  try {
    await trustProject(dir, configHome);
    const served = await serve(dir, { env: { XDG_CONFIG_HOME: configHome } });
    try {
      const client = await mcpClient(served, "/internal/mcp");
      await startRun(client, "slow");
      pids = [...await pidsIn(dir, "pids"), ...await pidsIn(dir, "daemon")];
      await closeClient(client);
    } finally {
      await served.stop();
    }
    // Ended before the service exited; the kernel takes a moment to finish off a killed process.
    await eventually(
      "the command's group to be gone with the service",
      () => pids.some(alive) ? undefined : true,
    );
  } finally {
    for (const pid of pids.filter(alive)) Deno.kill(pid, "SIGKILL");
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(configHome, { recursive: true });
  }
});
