/**
 * A command from the project's files runs only once the person trusts exactly it: until then the Run waits
 * on it (`untrusted`, with what to do) and nothing runs; `weft trust` then `retry` runs it; an edit to the
 * command asks again. A kill -9 of the service during a command leaves the Run `RUN_INTERRUPTED`, the next
 * start ends the command's process group, and `retry` runs the command again to the end.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import {
  call,
  closeClient,
  mcpClient,
  runWeft,
  serve,
  type ServedProject,
  tempProject,
  withServedProject,
} from "../support/service.ts";
import { eventually } from "../support/deadline.ts";
import { confirmedPlanOverMcp } from "../support/deliver_mcp.ts";
import { timelineOf, waitForRun } from "../model/support.ts";
import { claim, complete } from "../agent/support.ts";
import {
  alive,
  commandEnd,
  commandFiles,
  commandWorkflow,
  DAEMON,
  ended,
  pidsIn,
  startRun,
} from "./support.ts";

/** Runs `fn` with a fresh user config folder, removed afterwards. */
async function withConfigHome<T>(fn: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const configHome = await Deno.makeTempDir({ prefix: "weft-user-" });
  try {
    return await fn({ XDG_CONFIG_HOME: configHome, NO_COLOR: "1" });
  } finally {
    await Deno.remove(configHome, { recursive: true });
  }
}

const untrusted = (run: RunView) => run.pendingCommand?.phase === "untrusted";

Deno.test("an untrusted command waits and never runs; trusting it then retrying runs it; an edit asks again", async () => {
  await withConfigHome(async (env) => {
    await withServedProject({
      env,
      files: commandFiles("touch", { run: ["sh", "-c", "touch ran"] }),
    }, async (served) => {
      const client = await mcpClient(served, "/internal/mcp");
      const weft = (...args: string[]) => runWeft(args, { cwd: served.projectDir, env });
      const ran = () => Deno.stat(`${served.projectDir}/ran`).then(() => true, () => false);
      try {
        const first = await startRun(client, "touch");
        const blocked = await waitForRun(client, first.runId, "waiting on an untrusted command", untrusted);
        assert.equal(blocked.status, "waiting");
        assert.match(blocked.pendingCommand!.reason!, /weft trust/);
        assert.match(blocked.pendingCommand!.reason!, new RegExp(`weft retry ${first.runId}`));
        assert.equal(await ran(), false, "an untrusted command ran");

        const review = JSON.parse((await weft("trust", "--json")).stdout);
        assert.equal(review.trust.state, "not_trusted");
        assert.deepEqual(review.trust.content.commandSteps, [
          { workflow: "touch", stage: "verify", step: "run", run: ["sh", "-c", "touch ran"], env: [] },
        ]);
        assert.equal((await weft("trust", "--yes")).code, 0);
        await call(client, "retry_run", { runId: first.runId });
        assert.equal((await ended(client, first.runId)).status, "completed");
        assert.equal((await commandEnd(client, first.runId)).outcome, "passed");
        assert.equal(await ran(), true);

        await Deno.remove(`${served.projectDir}/ran`);
        const edited = commandWorkflow("touch", { run: ["sh", "-c", "touch ran; echo edited"] });
        await Deno.writeTextFile(
          `${served.projectDir}/workflows/touch/workflow.json`,
          JSON.stringify(edited),
        );
        const second = await startRun(client, "touch");
        const before = await waitForRun(
          client,
          second.runId,
          "waiting on the edited, untrusted command",
          untrusted,
        );
        assert.equal(await ran(), false, "an edited command ran without being trusted again");
        assert.equal(JSON.parse((await weft("trust", "--json")).stdout).trust.state, "not_trusted");

        // Trusting what the file says now trusts that, not what an older Run was pinned to.
        const third = commandWorkflow("touch", { run: ["sh", "-c", "echo third"] });
        await Deno.writeTextFile(`${served.projectDir}/workflows/touch/workflow.json`, JSON.stringify(third));
        assert.equal((await weft("trust", "--yes")).code, 0);
        const retried = (await call<{ run: RunView }>(client, "retry_run", { runId: second.runId })).run;
        const again = await waitForRun(
          client,
          retried.runId,
          "untrusted again under its own version",
          (run) => untrusted(run) && run.pendingCommand!.id !== before.pendingCommand!.id,
        );
        assert.equal(again.status, "waiting");
        assert.equal(await ran(), false, "a command of an older version ran on the trust of the current one");
      } finally {
        await closeClient(client);
      }
    });
  });
});

Deno.test("a timeout ends the command with outcome timed_out, and every process it started", async () => {
  let pids: number[] = [];
  await withServedProject({
    trusted: true,
    files: commandFiles("sleepy", { run: ["sh", "-c", `${DAEMON}sleep 1000`], timeoutSeconds: 1 }),
  }, async (served) => {
    const client = await mcpClient(served, "/internal/mcp");
    try {
      const run = await startRun(client, "sleepy");
      pids = await pidsIn(served.projectDir, "daemon");
      assert.equal((await ended(client, run.runId)).status, "completed");
      const { end, outcome } = await commandEnd(client, run.runId);
      assert.equal(outcome, "timed_out");
      assert.equal(end?.timedOut, true);
      await eventually("the daemon that left the group to be gone", () => !pids.some(alive) || undefined);
    } finally {
      await closeClient(client);
      for (const pid of pids.filter(alive)) Deno.kill(pid, "SIGKILL");
    }
  });
});

Deno.test("a kill -9 of the service during a command leaves RUN_INTERRUPTED; the next start ends the command's group and what left it; retry runs the command to the end", async () => {
  const script =
    `if [ -f first ]; then echo second; exit 0; fi; ${DAEMON}sleep 1000 & echo $$ $! > first; wait`;
  const dir = await tempProject(commandFiles("resume", { run: ["sh", "-c", script] }));
  const configHome = await Deno.makeTempDir({ prefix: "weft-user-" });
  const env = { XDG_CONFIG_HOME: configHome, NO_COLOR: "1" };
  let pids: number[] = [];
  let served: ServedProject | undefined;
  try {
    assert.equal((await runWeft(["trust", "--yes"], { cwd: dir, env })).code, 0);
    served = await serve(dir, { env });
    let client = await mcpClient(served, "/internal/mcp");
    const run = await startRun(client, "resume");
    pids = [...await pidsIn(dir, "first"), ...await pidsIn(dir, "daemon")];
    // Recorded once it runs: a kill right after the spawn, before the record is written, is not covered.
    await eventually("the command's group to be recorded", async () => {
      const names = await Array.fromAsync(Deno.readDir(`${dir}/.weft/commands`)).catch(() => []);
      return names.some((entry) => entry.name.startsWith(`${pids[0]}-`)) || undefined;
    });
    await closeClient(client).catch(() => {});
    await served.kill();
    assert.ok(pids.every(alive), "a killed service cannot end its command's group by itself");
    served = await serve(dir, { env });
    await eventually(
      "the next start to end the killed service's command group",
      () => !pids.some(alive) || undefined,
    );
    client = await mcpClient(served, "/internal/mcp");
    try {
      const interrupted = (await call<{ run: RunView }>(client, "get_run", { runId: run.runId })).run;
      assert.equal(interrupted.status, "failed");
      assert.equal(interrupted.lastError?.code, "RUN_INTERRUPTED");
      await call(client, "retry_run", { runId: run.runId });
      assert.equal((await ended(client, run.runId)).status, "completed");
      assert.equal((await commandEnd(client, run.runId)).outcome, "passed");
      await eventually(
        "no record to outlive its group",
        async () => (await Array.fromAsync(Deno.readDir(`${dir}/.weft/commands`))).length === 0 || undefined,
      );
    } finally {
      await closeClient(client);
    }
  } finally {
    // Should the test fail before the restart ended them, nothing outlives it.
    for (const pid of pids.filter(alive)) Deno.kill(pid, "SIGKILL");
    await served?.stop();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(configHome, { recursive: true });
  }
});

Deno.test("deliver's verify runs no command of an untrusted weft.json: the task waits on it, saying why, until the person trusts it", async () => {
  const outside = await Deno.makeTempDir({ prefix: "weft-marker-" });
  const marker = `${outside}/verify-ran`;
  try {
    await withConfigHome(async (env) => {
      await withServedProject({
        env,
        files: { "weft.json": JSON.stringify({ commands: { verify: ["sh", "-c", `touch ${marker}`] } }) },
      }, async (served) => {
        const ide = await mcpClient(served, "/mcp");
        const person = await mcpClient(served, "/internal/mcp");
        const ran = () => Deno.stat(marker).then(() => true, () => false);
        try {
          const intent = await confirmedPlanOverMcp({ ide, person });
          let run =
            (await call<{ run: RunView }>(ide, "flow", { flowName: "deliver", intent: intent.runId })).run;
          const claimed = await claim(ide, run, "ide-agent");
          run = await complete(ide, claimed, { outcome: "implemented", summary: "wrote it" });
          const blocked = await waitForRun(
            ide,
            run.runId,
            "waiting on the untrusted verify command, or past it",
            (now) => untrusted(now) || now.cursor.stepName !== "verify",
          );
          assert.equal(await ran(), false, "the verify command of an untrusted weft.json ran");
          assert.equal(blocked.cursor.stepName, "verify");
          assert.equal(blocked.pendingCommand?.phase, "untrusted");
          assert.match(blocked.pendingCommand!.reason!, /not trusted.*weft trust/s);
          const timeline = await timelineOf(person, run.runId);
          assert.ok(
            timeline.some((event) =>
              event.type === "command_untrusted" && /weft trust/.test(String(event.reason))
            ),
            "the Run says why it waits",
          );

          // Not vacuous: once trusted, the same task's verify runs it.
          assert.equal((await runWeft(["trust", "--yes"], { cwd: served.projectDir, env })).code, 0);
          await call(person, "retry_run", { runId: run.runId });
          await eventually("the trusted verify command to run", async () => await ran() || undefined);
        } finally {
          await closeClient(ide);
          await closeClient(person);
        }
      });
    });
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("a step's fallback is trusted content: changing only it asks again, weft trust shows it, and nothing runs meanwhile", async () => {
  const commands = { test: ["sh", "-c", "touch test-ran"], deploy: ["sh", "-c", "touch deploy-ran"] };
  const step = (fallback: string[]) => ({ run: "check", fallback });
  await withConfigHome(async (env) => {
    await withServedProject({
      env,
      files: { ...commandFiles("ship", step(["test"])), "weft.json": JSON.stringify({ commands }) },
    }, async (served) => {
      const dir = served.projectDir;
      const client = await mcpClient(served, "/internal/mcp");
      const weft = (...args: string[]) => runWeft(args, { cwd: dir, env });
      const ran = (name: string) => Deno.stat(`${dir}/${name}-ran`).then(() => true, () => false);
      try {
        const shown = await weft("trust");
        assert.match(shown.stdout, /ship verify\/run +commands\.check or commands\.test /);
        const first = JSON.parse((await weft("trust", "--yes", "--json")).stdout).trust;
        assert.deepEqual(first.content.commandSteps[0].fallback, ["test"]);
        const run = await startRun(client, "ship");
        assert.equal((await ended(client, run.runId)).status, "completed");
        assert.equal(await ran("test"), true, "the trusted fallback runs");

        await Deno.writeTextFile(
          `${dir}/workflows/ship/workflow.json`,
          JSON.stringify(commandWorkflow("ship", step(["deploy"]))),
        );
        const review = JSON.parse((await weft("trust", "--json")).stdout).trust;
        assert.equal(review.state, "not_trusted", "only the fallback changed, and the trust is asked again");
        assert.notEqual(review.digest, first.digest);
        assert.deepEqual(review.content.commandSteps[0].fallback, ["deploy"]);
        assert.match((await weft("trust")).stdout, /commands\.check or commands\.deploy /);
        const second = await startRun(client, "ship");
        await waitForRun(client, second.runId, "waiting on the untrusted command", untrusted);
        assert.equal(await ran("deploy"), false, "a changed fallback ran without being trusted");
      } finally {
        await closeClient(client);
      }
    });
  });
});
