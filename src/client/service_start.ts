/**
 * Starting `weft serve` as a background process and waiting for its ready line.
 *
 * @module
 */

import { LineReader } from "../lib/line_reader.ts";
import { ClientFailure } from "./failure.ts";
import { serviceCommand } from "./self_command.ts";

/** The ready line of `weft serve`. */
export interface ReadyLine {
  url: string;
  port: number;
  pid: number;
  instanceId: string;
}

/** How to start the service in the background. */
export interface StartOptions {
  port?: number;
  /**
   * The idle exit a person asked for (`weft start --idle-exit`), in milliseconds; absent when a client starts
   * the service on someone's behalf, which then exits after the user configuration's idle time.
   */
  idleExitMs?: number;
}

/**
 * Spawns `serve` detached from this process, reads its one ready line, and lets it run on. Its stderr goes
 * nowhere: once we stop reading, a write into a closed pipe could otherwise end it. A service that does not
 * start is a {@linkcode ClientFailure} with the code and fix `weft serve` classified it with.
 */
export async function startService(projectDir: string, options: StartOptions = {}): Promise<ReadyLine> {
  const self = serviceCommand();
  const { port, idleExitMs } = options;
  const args = [
    ...self.args,
    "serve",
    "--project",
    projectDir,
    ...(port === undefined ? [] : ["--port", `${port}`]),
    ...(idleExitMs === undefined ? ["--on-behalf"] : ["--idle-exit", `${idleExitMs / 1000}`]),
  ];
  const child = new Deno.Command(self.command, {
    args,
    env: self.env,
    stdin: "null",
    stdout: "piped",
    stderr: "null",
    detached: true,
  }).spawn();
  const line = await firstLine(child.stdout);
  child.unref();
  let parsed: { ready?: boolean; error?: string; code?: string; fix?: string } & Partial<ReadyLine>;
  try {
    parsed = JSON.parse(line ?? "");
  } catch {
    const status = await child.status;
    throw new ClientFailure(
      "FAILURE",
      `the service exited (code ${status.code}) before it was ready`,
      "`weft logs` shows what it saw; `weft doctor` checks the project",
    );
  }
  if (!parsed.ready) {
    // `weft serve` classified why; its code and fix are the ones to show.
    throw new ClientFailure(
      parsed.code ?? "FAILURE",
      parsed.error ?? "the service could not start",
      parsed.fix ?? "`weft doctor` checks the project",
    );
  }
  return { url: parsed.url!, port: parsed.port!, pid: parsed.pid!, instanceId: parsed.instanceId! };
}

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string | null> {
  const lines = new LineReader(stream);
  try {
    return await lines.next();
  } finally {
    await lines.cancel();
  }
}
