/**
 * `weft attach` following a Run whose service is killed (SIGKILL, as a crash): a crashed service does not come
 * back by itself, so attach says at once that it needs recovery and how to recover, instead of waiting for a
 * restart; after `weft start`, the Run says `weft retry` resumes it, and its error says it is retryable.
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient, runWeft, withServedProject } from "../support/service.ts";
import { NOTES_PROJECT, Terminal } from "./support.ts";

Deno.test("attach after the service crashed says at once it needs recovery; the Run then resumes with weft retry", async () => {
  await withServedProject({ files: NOTES_PROJECT }, async (served) => {
    const cwd = served.projectDir;
    const ide = await mcpClient(served, "/mcp");
    let terminal: Terminal | undefined;
    let restarted = false;
    try {
      const { run } = await call<{ run: RunView }>(ide, "flow", { flowName: "intent", intent: "An app" });
      await call(ide, "claim_agent_call", {
        runId: run.runId,
        callId: run.pendingAgentCall!.id,
        claimId: "crash",
      });
      terminal = new Terminal(["attach", run.runId], { cwd, env: { NO_COLOR: "1" } });
      const seen = await terminal.waitFor("(claimed), executed by the IDE's agent · ");
      await served.kill();
      const killedAt = elapsedShown(terminal.output);
      const failed = await terminal.waitFor("NEEDS_RECOVERY", seen);
      // No wait for a restart that will not come (a command waits 15 s for one): the indicator, which counts
      // seconds, went on for at most a few after the kill.
      assert.ok(
        elapsedShown(terminal.output.slice(0, failed)) - killedAt <= 5,
        `attach waited for a restart after the crash:\n${terminal.output}`,
      );
      assert.notEqual(await terminal.exit(), 0);
      assert.match(terminal.output, /fix: .*start` clears a crashed service's leftovers/);

      // Recovered by the fix it printed, the Run says how to resume it, and that its error is retryable.
      restarted = true;
      assert.equal((await runWeft(["start"], { cwd })).code, 0);
      const shown = await runWeft(["run", run.runId, "--json"], { cwd });
      const failedRun = (JSON.parse(shown.stdout) as { run: RunView }).run;
      assert.deepEqual(failedRun.lastError && [failedRun.lastError.code, failedRun.lastError.retryable], [
        "RUN_INTERRUPTED",
        true,
      ]);
      const human = await runWeft(["run", run.runId], { cwd });
      assert.match(human.stdout, /resume it with: .* retry run_/);
    } finally {
      if (restarted) await runWeft(["stop"], { cwd });
      await terminal?.kill();
      await closeClient(ide).catch(() => {});
    }
  });
});

/** The seconds the last live indicator line of `output` shows (`· M:SS`). */
function elapsedShown(output: string): number {
  const times = [...output.matchAll(/· (\d+):(\d\d)/g)];
  const last = times.at(-1);
  return last ? Number(last[1]) * 60 + Number(last[2]) : 0;
}
