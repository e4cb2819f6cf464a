/**
 * Timing and statistics: medians of timed calls, and the interleavings that let weft and its baseline see
 * the same load of a shared machine.
 *
 * @module
 */

import type { Client } from "../support/sdk_test_client.ts";
import { echo } from "./clients.ts";

/** The summary of a set of timings, in ms. */
export interface Sample {
  n: number;
  median: number;
  p90: number;
  min: number;
}

/** Count, median, 90th percentile and minimum of `values`. */
export function summarize(values: number[]): Sample {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const mid = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { n: sorted.length, median: round(median), p90: round(at(0.9)), min: round(sorted[0]) };
}

/**
 * Milliseconds the process `pid` has spent on a CPU so far, all its threads together (Linux's
 * `/proc/PID/task/N/schedstat`), or undefined where that is not available. Unlike wall time, this hardly
 * moves when other work shares the machine, so start-up rows report it beside their wall times.
 */
export function processCpuMs(pid: number): number | undefined {
  try {
    let nanoseconds = 0;
    for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
      try {
        nanoseconds += Number(
          Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/schedstat`).split(" ")[0],
        );
      } catch {
        // a thread that ended meanwhile
      }
    }
    return nanoseconds / 1e6;
  } catch {
    return undefined;
  }
}

/** `value` rounded to `digits` decimals. */
export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Milliseconds `work` takes. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * Runs `a` and `b` alternately in blocks (which goes first swaps every round), so drift in the load of a
 * shared machine affects both the same way.
 */
export async function alternate(
  total: number,
  block: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[number[], number[]]> {
  const times: [number[], number[]] = [[], []];
  for (let done = 0, round = 0; done < total; done += block, round++) {
    const size = Math.min(block, total - done);
    for (const index of round % 2 ? [1, 0] : [0, 1]) {
      const work = index ? b : a;
      for (let i = 0; i < size; i++) times[index].push(await timed(work));
    }
  }
  return times;
}

/**
 * Times `op` `count` times after `warmup` untimed runs; after each, times a block of `echoes` consecutive bare
 * echo calls, so the baseline is measured in the same moments as the operation (the load of a shared machine
 * drifts). The baseline of one run is that block's time divided by `echoes`, so both sides are timed the same
 * way: a sequence of calls whose first one meets a server that sat idle while the other side was measured.
 * (Timing echoes one by one would leave that wake-up out of all but one of them, and out of their median.)
 */
export async function pairedWithEcho(
  count: number,
  warmup: number,
  echoes: number,
  bare: Client,
  op: (i: number) => Promise<unknown>,
): Promise<[number[], number[]]> {
  const times: number[] = [];
  const echoTimes: number[] = [];
  for (let i = 0; i < warmup + count; i++) {
    const ms = await timed(() => op(i));
    if (i < warmup) continue;
    times.push(ms);
    const block = await timed(async () => {
      for (let e = 0; e < echoes; e++) await echo(bare);
    });
    echoTimes.push(block / echoes);
  }
  return [times, echoTimes];
}
