/**
 * `weft start`, `weft stop` and `weft status`: the service's life as seen from the terminal.
 *
 * @module
 */

import { connect } from "../client/connect.ts";
import { ServiceOfflineError } from "../client/offline.ts";
import { inspectLock } from "../weft_dir/lock.ts";
import { UNTRUSTED_FIX } from "../weft_dir/trust.ts";
import { weftPaths } from "../weft_dir/paths.ts";
import { isProcessAlive } from "../weft_dir/process.ts";
import { IDLE_EXIT_OPTION, PORT_OPTION, UsageError } from "./args.ts";
import { defineCommand } from "./command.ts";
import { CommandFailure } from "./failure.ts";
import { EXIT } from "./exit_codes.ts";
import { hint } from "./format.ts";
import { spawnService } from "./spawn.ts";

/** What `status --json` prints. */
export interface StatusReport {
  state: "running" | "offline" | "needs_recovery";
  reason: string;
  url?: string;
  pid?: number;
  instanceId?: string;
  service?: Record<string, unknown>;
}

/** Observes the project's service through its lock, its metadata and a real `status` call. */
export async function observe(projectDir: string): Promise<StatusReport> {
  let client;
  try {
    client = await connect(projectDir, { source: "cli", clientName: "weft-cli" });
  } catch (error) {
    if (!(error instanceof ServiceOfflineError)) throw error;
    return { state: error.needsRecovery ? "needs_recovery" : "offline", reason: error.reason };
  }
  try {
    const { service } = await client.call<{ service: Record<string, unknown> }>("status");
    return {
      state: "running",
      reason: "the service answers",
      url: client.connection.url,
      pid: service.pid as number,
      instanceId: service.instanceId as string,
      service,
    };
  } finally {
    await client.close();
  }
}

/** `weft status` */
export const statusCommand = defineCommand({
  name: "status",
  summary: "say whether the service runs: running, offline or needs recovery",
  synopsis: "status",
  description: "Says whether the service of the project runs, and why not.",
  json: 'print { "state": running|offline|needs_recovery, "reason", "url"?, "pid"?, "instanceId"? }',
  notes: "Exit codes: 0 running, 3 offline, 4 needs recovery.",
  async run({ projectDir, positionals, json }) {
    noArguments(positionals);
    const report = await observe(projectDir);
    if (json) console.log(JSON.stringify(report));
    else if (report.state === "running") {
      console.log(`running  ${report.url}  pid ${report.pid}  instance ${report.instanceId}`);
    } else if (report.state === "offline") {
      console.log(`offline  ${report.reason}\n  ${hint("start it with", "weft start")}`);
    } else console.log(`needs recovery  ${report.reason}\n  ${recoveryHint(report.reason)}`);
    return report.state === "running"
      ? EXIT.OK
      : report.state === "offline"
      ? EXIT.OFFLINE
      : EXIT.NEEDS_RECOVERY;
  },
});

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
    const before = await observe(projectDir);
    const runningOn = before.url ? Number(new URL(before.url).port) : undefined;
    if (before.state === "running" && options.port && options.port !== runningOn) {
      throw new CommandFailure(
        "ALREADY_RUNNING",
        `the service already runs for this project on port ${runningOn}, not ${options.port}`,
        `to move it: weft stop && weft start --port ${options.port}`,
      );
    }
    if (before.state === "running") {
      report(json, { ...before, reason: "already running; reused" }, `already running  ${before.url}`);
      return EXIT.OK;
    }
    const ready = await spawnService(projectDir, {
      port: options.port,
      idleExitMs: options["idle-exit"] ?? 0,
    });
    const after = { state: "running" as const, reason: "started", ...ready };
    report(json, after, `started  ${ready.url}  pid ${ready.pid}`);
    return EXIT.OK;
  },
});

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
    const observed = await observe(projectDir);
    if (observed.state === "offline") {
      report(json, observed, `not running  ${observed.reason}`);
      return EXIT.OK;
    }
    if (observed.state === "needs_recovery") {
      report(json, observed, `refusing to stop: ${observed.reason}\n  ${recoveryHint(observed.reason)}`);
      return EXIT.NEEDS_RECOVERY;
    }
    const lock = await inspectLock(paths);
    if (
      lock.kind !== "held" || lock.owner.pid !== observed.pid ||
      lock.owner.instanceId !== observed.instanceId
    ) {
      report(
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
      report(
        json,
        { ...observed, reason: "did not stop within 15 s" },
        `pid ${observed.pid} did not stop within 15 s`,
      );
      return EXIT.FAILURE;
    }
    report(
      json,
      { state: "offline", reason: "stopped", pid: observed.pid, instanceId: observed.instanceId },
      "stopped",
    );
    return EXIT.OK;
  },
});

function recoveryHint(reason: string): string {
  if (reason.startsWith("untrusted state")) return `move it aside: ${UNTRUSTED_FIX}`;
  return reason.includes("crashed")
    ? "`weft start` clears the leftovers safely (the old process is gone)"
    : "check the process named above; weft never signals a process it cannot verify";
}

function report(json: boolean, value: StatusReport, human: string): void {
  if (json) console.log(JSON.stringify(value));
  else if (human) console.log(human);
}

function noArguments(positionals: string[]): void {
  if (positionals.length) {
    throw new UsageError(
      `takes no arguments, not "${positionals[0]}" (a project is named with --project DIR)`,
    );
  }
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return await condition();
}
