/**
 * The soak's memory baseline: the same number of sessions calling a bare MCP SDK server's `echo` for the
 * same time, and what one idle open session costs each server. Both servers are child processes whose
 * resident set size (`VmRSS`) is read from /proc.
 *
 * @module
 */

import type { Client } from "../support/sdk_test_client.ts";
import { connect, echo } from "../bench/clients.ts";
import { closeClient } from "../bench/resources.ts";
import { startChild, type Started } from "../bench/servers.ts";

/** Resident memory of the bare server under the soak's load, in KiB. */
export interface BareSoakFigures {
  operations: number;
  rssStartKiB: number;
  rssPeakKiB: number;
  rssEndKiB: number;
  /** The server's CPU time per call over the load, in ms. */
  cpuMsPerCall: number;
}

/** The CPU time process `pid` has used so far (user and system, ended threads included), in ms. */
export function processCpuMs(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are the 14th and 15th fields of the line, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The resident set size of process `pid`, in KiB. */
export function residentKiB(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

/**
 * `sessions` sessions of the bare server, each calling `echo` back to back for `seconds`; `denoFlags` are
 * `deno run`'s flags for it.
 */
export async function bareSoak(
  sessions: number,
  seconds: number,
  denoFlags: string[] = [],
): Promise<BareSoakFigures> {
  const bare = await startChild("bare", undefined, false, undefined, [], { denoFlags });
  const pid = bare.pid;
  const clients: Client[] = [];
  try {
    const rssStartKiB = residentKiB(pid);
    let rssPeakKiB = rssStartKiB;
    for (let i = 0; i < sessions; i++) clients.push(await connect(bare, "/mcp"));
    const deadline = performance.now() + seconds * 1000;
    const sampler = setInterval(() => rssPeakKiB = Math.max(rssPeakKiB, residentKiB(pid)), 250);
    let operations = 0;
    const cpuStart = processCpuMs(pid);
    try {
      await Promise.all(clients.map(async (client) => {
        while (performance.now() < deadline) await echo(client), operations++;
      }));
    } finally {
      clearInterval(sampler);
    }
    const rssEndKiB = residentKiB(pid);
    const cpuMsPerCall = Math.round((processCpuMs(pid) - cpuStart) / operations * 1000) / 1000;
    return { operations, rssStartKiB, rssPeakKiB: Math.max(rssPeakKiB, rssEndKiB), rssEndKiB, cpuMsPerCall };
  } finally {
    await Promise.all(clients.map((client) => closeClient(client)));
    await bare.stop();
  }
}

/**
 * What one idle open session costs a server: resident memory after opening `count` sessions (initialized,
 * then left alone for a second) minus before, per session, in KiB. `open` connects one client.
 */
export async function idleSessionKiB(
  pid: number,
  count: number,
  open: () => Promise<Client>,
): Promise<number> {
  const before = residentKiB(pid);
  const clients: Client[] = [];
  try {
    for (let i = 0; i < count; i++) clients.push(await open());
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return Math.round((residentKiB(pid) - before) / count);
  } finally {
    await Promise.all(clients.map((client) => closeClient(client)));
  }
}

/** Idle-session cost of the bare server, started for the purpose with `denoFlags`. */
export async function bareIdleSessionKiB(count: number, denoFlags: string[] = []): Promise<number> {
  const bare: Started = await startChild("bare", undefined, false, undefined, [], { denoFlags });
  try {
    return await idleSessionKiB(bare.pid, count, () => connect(bare, "/mcp"));
  } finally {
    await bare.stop();
  }
}
