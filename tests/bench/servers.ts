/**
 * The two servers the benchmark compares, as child processes that print one JSON ready line: `weft serve`
 * and `tests/bench/bare_server.ts`.
 *
 * @module
 */

import { processCpuMs } from "./measure.ts";
import { children, isStopping, withTimeout } from "./resources.ts";
import { serviceDenoFlags, serviceEnv } from "../../src/client/self_command.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const MAIN = `${ROOT}main.ts`;
const BARE = `${ROOT}tests/bench/bare_server.ts`;

/**
 * `WEFT_BENCH_CPU_PROF=DIR` has every weft service started from source write a V8 CPU profile into DIR when it
 * stops: where a row's time goes, measured on the very calls the row makes.
 */
function profileFlags(kind: "weft" | "bare"): string[] {
  const dir = kind === "weft" ? Deno.env.get("WEFT_BENCH_CPU_PROF") : undefined;
  return dir ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : [];
}

/** A started child, from its ready line. */
export interface Started {
  url: string;
  port: number;
  /** The server's process id. */
  pid: number;
  /** Milliseconds from spawn to the complete ready line. */
  readyMs: number;
  /** Milliseconds the server process had spent on a CPU when its ready line arrived (Linux only). */
  cpuMs?: number;
  /** The bearer tokens (weft only). */
  tokens?: { external: string; internal: string };
  stop(): Promise<void>;
}

/** How a child's own process is set up, beyond its program's arguments. */
export interface ChildProcessOptions {
  /** Variables added to the inherited environment (an isolated user config folder). */
  env?: Record<string, string>;
  /** Flags for `deno run` itself (the V8 flags a client starts the service with). */
  denoFlags?: string[];
  /** The module weft runs from instead of `main.ts` (the one a client starts the service from). */
  main?: string;
}

/**
 * The Deno flags the bare server runs with beside a weft started with `weftFlags`: the same, but none of V8's.
 * It then takes its packages from `node_modules/` as the service does (in Deno's default mode it would keep the
 * parsed registry records of deno.json's packages too), while the young generation's size is weft's own choice.
 */
export function bareDenoFlags(weftFlags: readonly string[]): string[] {
  return weftFlags.filter((flag) => !flag.startsWith("--v8-flags="));
}

/**
 * How a client starts the service from this checkout (`serviceDenoFlags`, `serviceEnv`), for both sides of a
 * per-call row: what a person's service costs a call, against the bare server run the same way, so that neither
 * side's figure is moved by a flag or variable (the young generation's size, the `malloc` arenas) only one
 * has.
 */
export function asStartedByAClient(): ChildProcessOptions {
  return { denoFlags: serviceDenoFlags(MAIN), env: serviceEnv() };
}

/**
 * Spawns `weft serve` on `projectDir` or the bare server, on port 0, and waits for its ready line; a
 * `longLived` weft also exits when this process dies. With `bundle`, runs that single-file build instead.
 * `extraArgs` go to the program after the port (the bare server's `--gated`).
 */
export async function startChild(
  kind: "weft" | "bare",
  projectDir?: string,
  longLived = false,
  bundle?: string,
  extraArgs: string[] = [],
  process: ChildProcessOptions = {},
): Promise<Started> {
  const { env, denoFlags = [], main = MAIN } = process;
  // A bundle runs alone in its own (otherwise empty) directory, without the repository's configuration.
  const program = bundle
    ? ["run", "-A", ...denoFlags, "--no-config", bundle]
    : ["run", "-A", ...denoFlags, ...profileFlags(kind), kind === "weft" ? main : BARE];
  const args = kind === "weft"
    ? [...program, "serve", "--project", projectDir!, "--port", "0"]
    : [...program, "--port", "0"];
  args.push(...extraArgs);
  // Long-lived children also exit when this process dies and their stdin closes (weft supports it).
  const pipedStdin = longLived && kind === "weft";
  if (pipedStdin) args.push("--exit-with-stdin");
  if (isStopping()) throw new Error("stopping");
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: bundle ? bundle.slice(0, bundle.lastIndexOf("/")) : ROOT,
    env,
    stdin: pipedStdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  children.add(child);
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const readLine = async () => {
    while (!buffered.includes("\n")) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += value;
    }
  };
  try {
    await withTimeout(readLine(), `${kind} start`);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  const readyMs = performance.now() - started;
  const cpuMs = processCpuMs(child.pid);
  const line = buffered.slice(0, buffered.indexOf("\n"));
  const drained = (async () => {
    while (!(await reader.read()).done) { /* keep the pipe flowing */ }
  })();
  let ready: { ready?: boolean; url?: string; port?: number };
  try {
    ready = JSON.parse(line);
  } catch {
    ready = {};
  }
  if (!ready.ready) {
    child.kill("SIGKILL");
    await child.status;
    children.delete(child);
    throw new Error(`${kind} did not start: ${line || "(no ready line)"} ${(await stderr).slice(0, 500)}`);
  }
  let tokens: Started["tokens"];
  if (kind === "weft") {
    const connection = JSON.parse(await Deno.readTextFile(`${projectDir}/.weft/connection.json`));
    tokens = { external: connection.externalToken, internal: connection.internalToken };
  }
  return {
    url: ready.url!,
    port: ready.port!,
    pid: child.pid,
    readyMs,
    cpuMs,
    tokens,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await withTimeout(child.status, `${kind} stop`, 10_000).catch(() => child.kill("SIGKILL"));
      await child.status;
      await Promise.allSettled([drained, stderr, pipedStdin ? child.stdin.close() : undefined]);
      children.delete(child);
    },
  };
}
