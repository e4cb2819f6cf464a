/**
 * `weft serve`: the service in the foreground. Prints exactly one JSON ready line on stdout, then runs until
 * SIGTERM, SIGINT or (with `--exit-with-stdin`) the end of stdin, and shuts down cleanly.
 *
 * @module
 */

import { startService } from "../service/service.ts";
import { LockHeldError } from "../weft_dir/lock.ts";
import { defineCommand } from "./command.ts";
import { DEFAULT_SESSION_LIMITS } from "../http/sessions.ts";
import { EXIT } from "./exit_codes.ts";

/** `weft serve` */
export const serveCommand = defineCommand({
  name: "serve",
  summary: "run the service in the foreground (for sidecars and tests)",
  synopsis: "serve [--port N] [--exit-with-stdin] [--max-sessions N]",
  description: `Runs the service in the foreground. When ready, prints one JSON line on stdout:
  {"ready":true,"url":...,"port":...,"pid":...,"instanceId":...}
Stops cleanly on SIGTERM or SIGINT, and with --exit-with-stdin when stdin closes.
If it cannot start, prints {"ready":false,"error":...} on stdout and the reason on stderr.`,
  options: {
    port: {
      type: "integer",
      arg: "N",
      min: 0,
      max: 65535,
      help: "listen on port N (0: any free port); default: the port of the last run, else any",
    },
    "exit-with-stdin": { type: "boolean", help: "stop when stdin closes (for a sidecar)" },
    "max-sessions": {
      type: "integer",
      arg: "N",
      min: 1,
      help: `cap the open MCP sessions (default ${DEFAULT_SESSION_LIMITS.maxSessions}); past it, 503`,
    },
  },
  json: "(the ready line is always JSON)",
  run: ({ projectDir, options }) => serve(projectDir, options),
});

async function serve(
  projectDir: string,
  options: { port?: number; "exit-with-stdin": boolean; "max-sessions"?: number },
): Promise<number> {
  const maxSessions = options["max-sessions"] ?? DEFAULT_SESSION_LIMITS.maxSessions;
  // Listening before starting: a stop requested while the service starts still ends it cleanly, with its
  // lock released, instead of the default action killing it half-started.
  const stopRequested = new Promise<void>((resolve) => {
    const stop = () => resolve();
    // Windows has no SIGTERM listener; there a sidecar stops the service through stdin or SIGINT.
    if (Deno.build.os !== "windows") Deno.addSignalListener("SIGTERM", stop);
    Deno.addSignalListener("SIGINT", stop);
    if (options["exit-with-stdin"]) void drain(Deno.stdin.readable).then(stop, stop);
  });
  let service;
  try {
    service = await startService({
      projectDir,
      port: options.port,
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
