/**
 * `weft stop`: stops exactly the instance it observed, and waits until it is gone.
 *
 * @module
 */

import { observeService } from "../../client/observe.ts";
import { inspectLock } from "../../weft_dir/lock.ts";
import { weftPaths } from "../../weft_dir/paths.ts";
import { isProcessAlive } from "../../weft_dir/process.ts";
import { noArguments } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { printReport, recoveryHint } from "../terminal/service_state.ts";

/**
 * `weft stop`: stops exactly the instance it observed. The pid to signal comes from the live service's own
 * `status` answer and must match the lock's owner; an instance that does not answer is never signalled.
 */
export const stopCommand = defineCommand({
  name: "stop",
  summary: "stop the service of a project",
  synopsis: "stop",
  description: "Stops the service that runs for the project, and waits until it is gone.",
  json: 'print { "state", "reason", "pid"?, "instanceId"? }',
  notes: "Exit codes: 0 stopped or not running, 1 it did not stop, 4 needs recovery.",
  async run({ projectDir, positionals, json }) {
    noArguments(positionals);
    const paths = weftPaths(projectDir);
    const observed = await observeService(projectDir);
    if (observed.state === "offline") {
      printReport(json, observed, `not running  ${observed.reason}`);
      return EXIT.OK;
    }
    if (observed.state === "needs_recovery") {
      printReport(json, observed, `refusing to stop: ${observed.reason}\n  ${recoveryHint(observed.reason)}`);
      return EXIT.NEEDS_RECOVERY;
    }
    const lock = await inspectLock(paths);
    if (
      lock.kind !== "held" || lock.owner.pid !== observed.pid ||
      lock.owner.instanceId !== observed.instanceId
    ) {
      printReport(
        json,
        { ...observed, state: "needs_recovery", reason: "the instance changed while stopping" },
        "",
      );
      return EXIT.NEEDS_RECOVERY;
    }
    Deno.kill(observed.pid!, "SIGTERM");
    // Done only when the lock is released and the process has exited: a restart may follow at once.
    const released = await waitFor(async () => {
      const now = await inspectLock(paths);
      const lockReleased = now.kind !== "held" || now.owner.instanceId !== observed.instanceId;
      return lockReleased && !isProcessAlive(observed.pid!);
    }, 15_000);
    if (!released) {
      printReport(
        json,
        { ...observed, reason: "did not stop within 15 s" },
        `pid ${observed.pid} did not stop within 15 s`,
      );
      return EXIT.FAILURE;
    }
    printReport(
      json,
      { state: "offline", reason: "stopped", pid: observed.pid, instanceId: observed.instanceId },
      "stopped",
    );
    return EXIT.OK;
  },
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return await condition();
}
