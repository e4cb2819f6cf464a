/**
 * Tool latency: weft's `status` and `get_run` tools against the bare server's `echo` tool.
 *
 * @module
 */

import type { Client } from "../support/sdk_test_client.ts";
import { N } from "./config.ts";
import { call, connect, echo } from "./clients.ts";
import { alternate, processCpuMs, round, summarize } from "./measure.ts";
import { log, ratioRow } from "./report.ts";
import { closeClient } from "./resources.ts";
import type { Started } from "./servers.ts";
import type { Revision } from "../support/modern_client.ts";

/**
 * The `status` and `get_run` rows: their latency against the bare `echo` tool's, one session each,
 * interleaved; both in the protocol revision `revision` (its row ids and metrics name it when it is not
 * 2025-11-25).
 */
export async function benchLatency(
  weftServer: Started,
  bare: Client,
  barePid: number,
  revision?: Revision,
): Promise<void> {
  const suffix = revision ? `_${revision}` : "";
  const named = revision ? `, MCP ${revision}` : "";
  log(
    `tool latency: ${N.latency} status calls vs ${N.latency} echo calls, one session each, interleaved${named}`,
  );
  const weft = await connect(weftServer, "/mcp", revision);
  try {
    for (let i = 0; i < 30; i++) await call(weft, "status"), await echo(bare);
    const pids = [weftServer.pid, barePid] as const;
    const [[status, echoes], statusCpu] = await onCpu(pids, N.latency, () =>
      alternate(
        N.latency,
        N.block,
        () => call(weft, "status"),
        () => echo(bare),
      ));
    ratioRow(
      `statusLatency${suffix}`,
      `status tool latency${named}`,
      summarize(status),
      summarize(echoes),
      "bare echo",
      1.2,
      statusCpu,
    );
    // A Run waiting for its agent, as an IDE's agent reads it between its calls.
    const { run } = await call<{ run: { runId: string } }>(weft, "flow", {
      flowName: "intent",
      intent: "bench",
    });
    const getRun = () => call(weft, "get_run", { runId: run.runId });
    for (let i = 0; i < 30; i++) await getRun(), await echo(bare);
    const [[reads, moreEchoes], getRunCpu] = await onCpu(
      pids,
      N.latency,
      () => alternate(N.latency, N.block, getRun, () => echo(bare)),
    );
    ratioRow(
      `getRunLatency${suffix}`,
      `get_run tool latency${named}`,
      summarize(reads),
      summarize(moreEchoes),
      "bare echo",
      1.2,
      getRunCpu,
    );
  } finally {
    await closeClient(weft);
  }
}

/**
 * Runs `work` (which makes `calls` calls on each of the two servers `pids`, and nothing else) and gives each
 * server's on-CPU time per call over it, and their ratio, in the form the start-up rows give theirs: wall times
 * on a busy machine are mostly waiting for a core, which the on-CPU time leaves out.
 */
async function onCpu<T>(
  pids: readonly [number, number],
  calls: number,
  work: () => Promise<T>,
): Promise<[T, Record<string, unknown>]> {
  const before = pids.map(processCpuMs);
  const result = await work();
  const after = pids.map(processCpuMs);
  if (before.some((ms) => ms === undefined) || after.some((ms) => ms === undefined)) return [result, {}];
  const [weft, baseline] = pids.map((_, i) => round((after[i]! - before[i]!) / calls, 3));
  return [result, {
    cpu: { weft: summarize([weft]), baseline: summarize([baseline]), ratio: round(weft / baseline, 2) },
  }];
}
