/**
 * `deno task bench`: weft's speed as ratios against a bare MCP SDK server measured in the same run.
 *
 * 1. start-to-ready of `weft serve` vs `tests/bench/bare_server.ts` (median of alternating runs), from source
 *    and from bundles;
 * 2. the `status` tool vs the bare `echo` tool (median latency on one session each);
 * 3. a Run of a human-only fixture workflow end to end over `/internal/mcp`, against the echo median;
 * 4. `list_artifacts` first page with 100 vs 20,000 stored Artifacts (seeded through the store), and
 *    `status` and `list_runs` first page with 100 vs 20,000 stored Runs;
 * 5. one agent handoff (claim, two tool calls, complete) on the embedded `intent` workflow over `/mcp`;
 * 6. 16 clients driving `intent` Runs (two handoffs and two confirmations each) at once: Runs per second;
 * 7. `weft mcp` (the stdio bridge) from spawn to a completed `initialize`, against a bare SDK stdio server;
 *    and the IDE's cold call, from spawn to `tools/list` answered when the bridge has to start the service;
 * 8. what an agent loads from each endpoint (`tools/list` plus instructions) against its byte budget, and the
 *    sizes of `get_run` and of the claim's task on an `intent` Run;
 * 9. commit-to-notification latency (a change on one session, the notification on another) against the echo
 *    round trip, and the soak with every session subscribed against the same soak unsubscribed.
 * 10. weft's own time per model turn, against a scripted model server that answers at once, and the same gap
 *     for a bare HTTP agent loop against the same server (`tests/bench/bare_model_client.ts`).
 * 11. Studio in Chromium: from opening the page to the Runs list shown with 1,000 Runs stored, against a
 *     static page of the same server; and the bytes of Studio's embedded files.
 * 12. the connection gate: the bare `echo` through weft's TCP front against the same server without it.
 * 13. memory at rest: the resident memory of a service (started as a client starts it) that answered one
 *     `status` and was then left quiet (`--rest-seconds N`, default 60), against the bare server left the same
 *     way after one `echo`: medians over several pairs started one after another; and the same from
 *     `deno bundle`'s weft.js against the bare server bundled alike.
 *
 * Prints a table, a Markdown section for docs/performance.md and, last, one JSON line of figures. Only 127.0.0.1 is
 * contacted; every child process and temp directory is removed at the end, on error, on Ctrl-C and when the
 * overall deadline passes. `--quick` runs fewer iterations (for a smoke test); `--startup` runs rows 1 and 7
 * only; `--only GROUP,…` runs the named groups only (`tests/bench/config.ts` lists them); `--rest-seconds N`
 * sets how long row 13 stays quiet.
 *
 * @module
 */

import { DEADLINE_MS, N, QUICK, runs, STARTUP_ONLY } from "./config.ts";
import { connect } from "./clients.ts";
import { round } from "./measure.ts";
import { failedRow, figures, log, markdown, reason, table } from "./report.ts";
import { cleanup, closeAllClients, closeClient, isStopping, tempDir } from "./resources.ts";
import { asStartedByAClient, startChild, type Started } from "./servers.ts";
import { benchBundleStartup, benchStartup } from "./startup.ts";
import { benchLatency } from "./latency.ts";
import { benchGateLatency } from "./gate.ts";
import { benchFixtureRun, fixtureFiles } from "./fixture_run.ts";
import { benchConcurrent, benchHandoff } from "./handoffs.ts";
import { benchListArtifacts } from "./list_artifacts.ts";
import { benchContext, benchResultSizes } from "./context.ts";
import { benchListRuns } from "./list_runs.ts";
import { benchBridgeStartup, benchColdCall } from "./bridge_startup.ts";
import { benchNotification, benchSubscribedSoak } from "./notifications.ts";
import { benchModelTurns } from "./model_turns.ts";
import { benchBundleMemoryAtRest, benchMemoryAtRest } from "./memory_at_rest.ts";
import { benchStudioLoad, benchStudioSize } from "./studio.ts";
import { MODERN_REVISION } from "../support/modern_client.ts";

async function main(): Promise<number> {
  const started = performance.now();
  const meta = {
    date: new Date().toISOString().slice(0, 10),
    deno: Deno.version.deno,
    os: `${Deno.build.os}/${Deno.build.arch}`,
    cpus: navigator.hardwareConcurrency,
    quick: QUICK,
  };

  if (runs("startup")) {
    await benchStartup().catch((error) => {
      failedRow("startToReady", "start-to-ready, weft serve", "≤ 1.15×", reason(error));
    });
    await benchBundleStartup().catch((error) => {
      failedRow("bundleToReady", "start-to-ready from the bundle", "≤ 1.15×", reason(error));
    });
  }

  const projectDir = await tempDir({ ...fixtureFiles(), "README.md": "# bench\n" });
  if (STARTUP_ONLY) {
    const weftServer = await startChild("weft", projectDir, true);
    try {
      await benchBridgeStartup(projectDir);
    } finally {
      await weftServer.stop();
    }
    await benchColdCall();
    return report(meta, started);
  }
  const onOneServer = [
    "latency",
    "gate",
    "fixture",
    "handoff",
    "notification",
    "concurrent",
    "sizes",
    "bridge",
  ] as const;
  if (onOneServer.some(runs)) await benchOnOneServer(projectDir);
  if (runs("cold")) await benchColdCall();
  if (runs("memory")) await benchMemoryAtRest();
  if (runs("memory")) await benchBundleMemoryAtRest();
  if (runs("artifacts")) await benchListArtifacts();
  if (runs("runs")) await benchListRuns();
  if (runs("soak")) await benchSubscribedSoak();
  if (runs("turns")) await benchModelTurns();
  if (runs("studio")) await benchStudioLoad(), await benchStudioSize();
  if (runs("context")) benchContext();
  return report(meta, started);
}

/**
 * The groups that share one weft service and one bare server, in the order they run; both are started as a
 * client starts the service ({@linkcode asStartedByAClient}).
 */
async function benchOnOneServer(projectDir: string): Promise<void> {
  let weftServer: Started | undefined;
  let bareServer: Started | undefined;
  let measured = !runs("latency");
  try {
    weftServer = await startChild("weft", projectDir, true, undefined, [], asStartedByAClient());
    bareServer = await startChild("bare", undefined, true, undefined, [], asStartedByAClient());
    const bare = await connect(bareServer, "/mcp");
    // The same rows again with both servers and clients on MCP 2026-07-28 (sessionless).
    const bareModern = await connect(bareServer, "/mcp", MODERN_REVISION);
    if (runs("latency")) {
      await benchLatency(weftServer, bare, bareServer.pid);
      await benchLatency(weftServer, bareModern, bareServer.pid, MODERN_REVISION);
    }
    measured = true;
    if (runs("gate")) await benchGateLatency(bare);
    if (runs("fixture")) await benchFixtureRun(weftServer, bare);
    if (runs("handoff")) {
      await benchHandoff(weftServer, bare);
      await benchHandoff(weftServer, bareModern, MODERN_REVISION);
    }
    if (runs("notification")) await benchNotification(weftServer, bare);
    await closeClient(bare);
    await closeClient(bareModern);
    if (runs("concurrent")) await benchConcurrent(weftServer);
    if (runs("sizes")) await benchResultSizes(weftServer);
    if (runs("bridge")) await benchBridgeStartup(projectDir);
  } catch (error) {
    if (!measured) failedRow("statusLatency", "status tool latency", "≤ 1.2×", reason(error));
    log(`  stopped early: ${reason(error)}`);
  } finally {
    await closeAllClients();
    await weftServer?.stop();
    await bareServer?.stop();
  }
}

/** Prints the table, the docs section and the JSON line of figures. */
function report(meta: Record<string, unknown>, started: number): number {
  const seconds = round((performance.now() - started) / 1000, 1);
  console.log("");
  console.log(table());
  console.log("");
  console.log(markdown(meta));
  console.log("");
  console.log(figures({ ...meta, seconds, iterations: N }));
  return 0;
}

if (import.meta.main) {
  const deadline = setTimeout(async () => {
    log(`bench: still running after ${DEADLINE_MS / 1000} s; stopping`);
    await cleanup();
    Deno.exit(2);
  }, DEADLINE_MS);
  const interrupt = async () => {
    await cleanup();
    Deno.exit(130);
  };
  Deno.addSignalListener("SIGINT", interrupt);
  let code = 1;
  try {
    code = await main();
  } catch (error) {
    log(
      isStopping() ? "bench: interrupted" : `bench failed: ${error instanceof Error ? error.stack : error}`,
    );
  } finally {
    await cleanup();
    clearTimeout(deadline);
    Deno.removeSignalListener("SIGINT", interrupt);
  }
  Deno.exit(code);
}
