/**
 * `weft serve`: the service in the foreground. Prints exactly one JSON ready line on stdout, then runs until
 * SIGTERM, SIGINT, (with `--exit-with-stdin`) the end of stdin or (with an idle exit) a long enough time with
 * nothing to do, and shuts down cleanly.
 *
 * @module
 */

import type { RunningService } from "../../service/service.ts";
import { claimStateDir } from "../../weft_dir/claim.ts";
import { LockHeldError, releaseLock } from "../../weft_dir/lock.ts";
import { UntrustedStateError } from "../../weft_dir/trust.ts";
import { IDLE_EXIT_OPTION, PORT_OPTION, UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { DEFAULT_SESSION_LIMITS } from "../../service/session_limits.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { CommandFailure, describeFailure, printFailure } from "../command_line/failure.ts";
import { say } from "../terminal/screen.ts";
import { visibleJson } from "../../lib/visible_text.ts";

/** `weft serve` */
export const serveCommand = defineCommand({
  name: "serve",
  summary: "run the service in the foreground (for sidecars and tests)",
  synopsis:
    "serve [--port N] [--exit-with-stdin] [--studio-url] [--max-sessions N] [--idle-exit DURATION | --on-behalf]",
  description: `Runs the service in the foreground. When ready, prints one JSON line on stdout:
  {"ready":true,"url":...,"port":...,"pid":...,"instanceId":...}
With --studio-url the line also has "studioUrl": an address that opens Studio in a web view, with
a single-use ticket valid for about a minute; read it from the pipe and never put it on a command
line, where other users can read it (docs/embedding.md).
Stops cleanly on SIGTERM or SIGINT, with --exit-with-stdin when stdin closes, and with --idle-exit
once it has had no session, no stream and no work in progress for that long (a Run waiting for a
person does not count: it waits on disk, and the next client starts the service again).
If it cannot start, prints {"ready":false,"error":...,"code":...,"fix":...} on stdout and the
reason on stderr.`,
  options: {
    port: PORT_OPTION,
    "exit-with-stdin": { type: "boolean", help: "stop when stdin closes (for a sidecar)" },
    "studio-url": {
      type: "boolean",
      help: "add a single-use Studio address to the ready line (for an app that shows Studio)",
    },
    "max-sessions": {
      type: "integer",
      arg: "N",
      min: 1,
      help:
        `cap the open MCP sessions of each token class (default ${DEFAULT_SESSION_LIMITS.maxSessions}); ` +
        "past it, 503 on the IDE's endpoints",
    },
    "idle-exit": { ...IDLE_EXIT_OPTION, help: `${IDLE_EXIT_OPTION.help}; default 0` },
    "on-behalf": {
      type: "boolean",
      help:
        "started by a client for the person (weft mcp, flow, studio, attach): the idle exit is the user " +
        "configuration's service.idleExit, else 30m",
    },
  },
  json: "(the ready line is always JSON)",
  run: ({ projectDir, options }) => serve(projectDir, options),
});

async function serve(
  projectDir: string,
  options: {
    port?: number;
    "exit-with-stdin": boolean;
    "studio-url": boolean;
    "max-sessions"?: number;
    "idle-exit"?: number;
    "on-behalf": boolean;
  },
): Promise<number> {
  const maxSessions = options["max-sessions"] ?? DEFAULT_SESSION_LIMITS.maxSessions;
  if (options["on-behalf"] && options["idle-exit"] !== undefined) {
    throw new UsageError("--on-behalf takes the configured idle exit; give either it or --idle-exit");
  }
  // Listening before starting: a stop requested while the service starts still ends it cleanly, with its
  // lock released, instead of the default action killing it half-started.
  const stopRequested = new Promise<void>((resolve) => {
    const stop = () => resolve();
    // Windows has no SIGTERM listener; there a sidecar stops the service through stdin or SIGINT.
    if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
    Deno.addSignalListener("SIGINT", stop);
    if (options["exit-with-stdin"]) void drain(Deno.stdin.readable).then(stop, stop);
  });
  let service: RunningService;
  try {
    // Loading the service's modules is most of a start, and checking and locking `.weft/` waits mostly on the
    // file system and on git: the two go on side by side.
    const [claimed, loaded] = await Promise.allSettled([
      claimStateDir(projectDir),
      import("../../service/service.ts"),
    ]);
    if (claimed.status === "rejected") throw claimed.reason;
    if (loaded.status === "rejected") {
      await releaseLock(claimed.value.paths, claimed.value.owner);
      throw loaded.reason;
    }
    service = await loaded.value.startService({
      projectDir,
      port: options.port,
      limits: { ...DEFAULT_SESSION_LIMITS, maxSessions },
      claimed: claimed.value,
      idleExit: options["on-behalf"] ? "configured" : options["idle-exit"],
    });
  } catch (error) {
    // The ready line carries the classified failure, so that `weft start` reports it with its own fix.
    const failure = describeFailure(whyNotStarted(error, options.port), "serve");
    const { code, message, fix } = failure;
    say(visibleJson({ ready: false, error: message, code, fix }));
    printFailure("serve", failure, false);
    return failure.exit;
  }
  const { url, port, pid, instanceId } = service;
  const studio = options["studio-url"] ? { studioUrl: service.studioUrl() } : {};
  say(visibleJson({ ready: true, url, port, pid, instanceId, ...studio }));

  await Promise.race([stopRequested, service.idle]);
  await service.shutdown();
  return EXIT.OK;
}

/** A start failure in words a person can act on: which port is taken, which service holds the project. */
function whyNotStarted(error: unknown, port: number | undefined): unknown {
  if (error instanceof Deno.errors.AddrInUse) {
    return new CommandFailure(
      "PORT_IN_USE",
      `port ${port} is already in use by another program`,
      `choose another with --port N (--port 0 takes any free port), or stop the program on port ${port}`,
    );
  }
  if (error instanceof UntrustedStateError) {
    return new CommandFailure("NEEDS_RECOVERY", `cannot start: ${error.message}`, error.fix);
  }
  if (error instanceof LockHeldError) {
    return new CommandFailure(
      "ALREADY_RUNNING",
      error.message,
      "use it (`weft status` shows where it listens), or stop it first with `weft stop`",
    );
  }
  return new CommandFailure(
    "FAILURE",
    `cannot start: ${(error as Error).message}`,
    "`weft doctor` checks the project",
  );
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<void> {
  for await (const _ of stream) {
    // Only the end of stdin matters.
  }
}
