/**
 * `weft mcp` (the stdio bridge an IDE launches) from spawn to a completed `initialize`, against a bare SDK
 * stdio server started the same way, with this project's service already running.
 *
 * @module
 */

import { N } from "./config.ts";
import { processCpuMs, summarize } from "./measure.ts";
import { cpuDetail } from "./startup.ts";
import { failedRow, log, ratioRow, reason } from "./report.ts";
import { children, withTimeout } from "./resources.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
}) + "\n";

/**
 * Spawns `args`, sends `initialize` on stdin and resolves with the milliseconds until its answer's line, and
 * the process's on-CPU milliseconds by then (Linux only).
 */
async function spawnToInitialize(args: string[]): Promise<{ ms: number; cpuMs?: number }> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  children.add(child);
  try {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(INITIALIZE));
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    await withTimeout(
      (async () => {
        while (!buffered.includes('"id":1')) {
          const { done, value } = await reader.read();
          if (done) throw new Error(`exited before answering initialize: ${buffered.slice(0, 200)}`);
          buffered += value;
        }
      })(),
      `initialize of ${args.join(" ")}`,
    );
    const ms = performance.now() - started;
    const cpuMs = processCpuMs(child.pid);
    if (!buffered.includes('"result"')) throw new Error(`initialize failed: ${buffered.slice(0, 200)}`);
    await writer.close().catch(() => {});
    await reader.cancel().catch(() => {});
    await withTimeout(child.status, "exit after stdin closed", 10_000).catch(() => child.kill("SIGKILL"));
    return { ms, cpuMs };
  } finally {
    await child.status.catch(() => {});
    children.delete(child);
  }
}

/** The bridge row: `weft mcp --project DIR` (its service running) against the bare stdio server. */
export async function benchBridgeStartup(projectDir: string): Promise<void> {
  const metric = "weft mcp spawn to initialize (service running)";
  log(`bridge start-up: ${N.spawns} alternating spawns of weft mcp and a bare SDK stdio server`);
  try {
    const weft = ["run", "-A", `${ROOT}main.ts`, "mcp", "--project", projectDir];
    const bare = ["run", "-A", `${ROOT}tests/bench/bare_stdio.ts`];
    await spawnToInitialize(weft);
    await spawnToInitialize(bare);
    const weftTimes: number[] = [];
    const bareTimes: number[] = [];
    const weftCpu: number[] = [];
    const bareCpu: number[] = [];
    for (let i = 0; i < N.spawns; i++) {
      for (const [args, times, cpu] of [[weft, weftTimes, weftCpu], [bare, bareTimes, bareCpu]] as const) {
        const { ms, cpuMs } = await spawnToInitialize(args);
        times.push(ms);
        if (cpuMs !== undefined) cpu.push(cpuMs);
      }
    }
    ratioRow(
      "bridgeStartup",
      metric,
      summarize(weftTimes),
      summarize(bareTimes),
      "bare stdio server",
      1.15,
      cpuDetail(weftCpu, bareCpu),
    );
  } catch (error) {
    failedRow("bridgeStartup", metric, "≤ 1.15×", reason(error));
  }
}
