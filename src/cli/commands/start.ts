/**
 * `weft start`: reuses the service that runs for the project, else starts one in the background and waits
 * until it is ready.
 *
 * @module
 */

import { observeService } from "../../client/observe.ts";
import { IDLE_EXIT_OPTION, noArguments, PORT_OPTION } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { CommandFailure } from "../command_line/failure.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { printReport, recoveryHint } from "../terminal/service_state.ts";
import { startService } from "../../client/service_start.ts";
import { ClientFailure } from "../../client/failure.ts";

/** `weft start`: reuse a running service, else start one in the background and wait until it is ready. */
export const startCommand = defineCommand({
  name: "start",
  summary: "start the service for a project in the background (or reuse it)",
  synopsis: "start [--port N] [--idle-exit DURATION]",
  description: `Starts the service in the background, or reuses the one that runs for the project.
It runs until \`weft stop\`, or with --idle-exit until it has had nothing to do for that long.
(A service that weft mcp, flow, studio or attach starts exits after 30 minutes idle by default:
service.idleExit in the user-level weft.json, docs/reference.md.)`,
  options: {
    port: PORT_OPTION,
    "idle-exit": { ...IDLE_EXIT_OPTION, help: `${IDLE_EXIT_OPTION.help}; default 0` },
  },
  json: 'print { "state": "running", "reason", "url", "port"?, "pid", "instanceId" }',
  async run({ projectDir, positionals, json, options }) {
    noArguments(positionals);
    const before = await observeService(projectDir);
    const runningOn = before.url ? Number(new URL(before.url).port) : undefined;
    if (before.state === "running" && options.port && options.port !== runningOn) {
      throw new CommandFailure(
        "ALREADY_RUNNING",
        `the service already runs for this project on port ${runningOn}, not ${options.port}`,
        `to move it: weft stop && weft start --port ${options.port}`,
      );
    }
    if (before.state === "running") {
      printReport(json, { ...before, reason: "already running; reused" }, `already running  ${before.url}`);
      return EXIT.OK;
    }
    const ready = await startService(projectDir, {
      port: options.port,
      idleExitMs: options["idle-exit"] ?? 0,
    }).catch((error) => {
      // The lock's live process did not answer before, so it is not a service to reuse: what status says.
      if (
        before.state === "needs_recovery" && error instanceof ClientFailure &&
        error.code === "ALREADY_RUNNING"
      ) {
        throw new CommandFailure("NEEDS_RECOVERY", before.reason, recoveryHint(before.reason));
      }
      throw error;
    });
    const after = { state: "running" as const, reason: "started", ...ready };
    printReport(json, after, `started  ${ready.url}  pid ${ready.pid}`);
    return EXIT.OK;
  },
});
