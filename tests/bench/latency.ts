/**
 * Tool latency: weft's `status` and `get_run` tools against the bare server's `echo` tool.
 *
 * @module
 */

import type { Client } from "../../src/mcp/sdk_client.ts";
import { N } from "./config.ts";
import { call, connect, echo } from "./clients.ts";
import { alternate, summarize } from "./measure.ts";
import { log, ratioRow } from "./report.ts";
import { closeClient } from "./resources.ts";
import type { Started } from "./servers.ts";

/**
 * The `status` and `get_run` rows: their latency against the bare `echo` tool's, one session each,
 * interleaved.
 */
export async function benchLatency(weftServer: Started, bare: Client): Promise<void> {
  log(`tool latency: ${N.latency} status calls vs ${N.latency} echo calls, one session each, interleaved`);
  const weft = await connect(weftServer, "/mcp");
  try {
    for (let i = 0; i < 30; i++) await call(weft, "status"), await echo(bare);
    const [status, echoes] = await alternate(
      N.latency,
      N.block,
      () => call(weft, "status"),
      () => echo(bare),
    );
    ratioRow("statusLatency", "status tool latency", summarize(status), summarize(echoes), "bare echo", 1.2);
    // A Run waiting for its agent, as an IDE's agent reads it between its calls.
    const { run } = await call<{ run: { runId: string } }>(weft, "flow", {
      flowName: "intent",
      intent: "bench",
    });
    const getRun = () => call(weft, "get_run", { runId: run.runId });
    for (let i = 0; i < 30; i++) await getRun(), await echo(bare);
    const [reads, moreEchoes] = await alternate(N.latency, N.block, getRun, () => echo(bare));
    ratioRow(
      "getRunLatency",
      "get_run tool latency",
      summarize(reads),
      summarize(moreEchoes),
      "bare echo",
      1.2,
    );
  } finally {
    await closeClient(weft);
  }
}
