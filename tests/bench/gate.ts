/**
 * The connection gate's cost: the bare server's `echo` through weft's TCP front (the gate relaying to
 * `Deno.serve` on a Unix socket) against the same server answering on TCP directly, interleaved call by call;
 * both started with the same flags and environment.
 *
 * @module
 */

import type { Client } from "../support/sdk_test_client.ts";
import { N } from "./config.ts";
import { connect, echo } from "./clients.ts";
import { alternate, summarize } from "./measure.ts";
import { failedRow, log, ratioRow, reason } from "./report.ts";
import { closeClient } from "./resources.ts";
import { asStartedByAClient, startChild, type Started } from "./servers.ts";

/**
 * The `gateLatency` row: `echo` through the gate against `echo` on `bare`, one session each; a failure is its
 * row's, and the benches after it still run.
 */
export async function benchGateLatency(bare: Client): Promise<void> {
  const metric = "`echo` through the connection gate";
  log(`connection gate: ${N.latency} echo calls through the gate vs ${N.latency} direct, interleaved`);
  let gatedServer: Started | undefined;
  let gated: Client | undefined;
  try {
    gatedServer = await startChild("bare", undefined, true, undefined, ["--gated"], asStartedByAClient());
    gated = await connect(gatedServer, "/mcp");
    for (let i = 0; i < 30; i++) await echo(gated), await echo(bare);
    const [through, direct] = await alternate(N.latency, N.block, () => echo(gated!), () => echo(bare));
    ratioRow("gateLatency", metric, summarize(through), summarize(direct), "direct", 1.15);
  } catch (error) {
    failedRow("gateLatency", metric, "≤ 1.15×", reason(error));
  } finally {
    if (gated) await closeClient(gated);
    await gatedServer?.stop();
  }
}
