/**
 * `weft serve`: the service in the foreground. Prints exactly one JSON ready line on stdout, then runs until
 * SIGTERM, SIGINT or (with `--exit-with-stdin`) the end of stdin, and shuts down cleanly.
 *
 * @module
 */

import { startService } from "../service/service.ts";
import { LockHeldError } from "../weft_dir/lock.ts";
import { parseCommand, UsageError } from "./args.ts";
import { DEFAULT_SESSION_LIMITS } from "../http/sessions.ts";
import { EXIT } from "./exit_codes.ts";

/** The usage text of `serve`. */
export const SERVE_USAGE =
  `Usage: weft serve [--project DIR] [--port N] [--exit-with-stdin] [--max-sessions N]

Runs the service in the foreground. When ready, prints one JSON line on stdout:
  {"ready":true,"url":...,"port":...,"pid":...,"instanceId":...}
Stops cleanly on SIGTERM or SIGINT, and with --exit-with-stdin when stdin closes.
--max-sessions caps the open MCP sessions (default ${DEFAULT_SESSION_LIMITS.maxSessions}); past it, 503.
If it cannot start, prints {"ready":false,"error":...} on stdout and the reason on stderr.`;

/** Runs `weft serve`; resolves with the exit code once the service has stopped. */
export async function serveCommand(args: string[]): Promise<number> {
  const { common, values } = parseCommand(args, {
    "exit-with-stdin": { type: "boolean", default: false },
    "max-sessions": { type: "string" },
  });
  if (common.help) {
    console.log(SERVE_USAGE);
    return EXIT.OK;
  }
  const maxSessions = values["max-sessions"] === undefined
    ? DEFAULT_SESSION_LIMITS.maxSessions
    : positiveInteger(values["max-sessions"], "--max-sessions");
  // Listening before starting: a stop requested while the service starts still ends it cleanly, with its
  // lock released, instead of the default action killing it half-started.
  const stopRequested = new Promise<void>((resolve) => {
    const stop = () => resolve();
    // Windows has no SIGTERM listener; there a sidecar stops the service through stdin or SIGINT.
    if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
    Deno.addSignalListener("SIGINT", stop);
    if (values["exit-with-stdin"] === true) void drain(Deno.stdin.readable).then(stop, stop);
  });
  let service;
  try {
    service = await startService({
      projectDir: common.projectDir,
      port: common.port,
      limits: { ...DEFAULT_SESSION_LIMITS, maxSessions },
    });
  } catch (error) {
    const message = error instanceof LockHeldError || error instanceof Deno.errors.AddrInUse
      ? (error as Error).message
      : `cannot start: ${(error as Error).message}`;
    console.log(JSON.stringify({ ready: false, error: message }));
    console.error(`weft: ${message}`);
    return EXIT.FAILURE;
  }
  const { url, port, pid, instanceId } = service;
  console.log(JSON.stringify({ ready: true, url, port, pid, instanceId }));

  await stopRequested;
  await service.shutdown();
  return EXIT.OK;
}

async function drain(stream: ReadableStream<Uint8Array>): Promise<void> {
  for await (const _ of stream) {
    // Only the end of stdin matters.
  }
}

function positiveInteger(value: unknown, flag: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new UsageError(`${flag} takes a positive whole number`);
  return number;
}
