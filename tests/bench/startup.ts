/**
 * Start-to-ready of `weft serve` against `tests/bench/bare_server.ts`: the median of rotating starts.
 *
 * @module
 */

import { N } from "./config.ts";
import { summarize } from "./measure.ts";
import { log, ratioRow } from "./report.ts";
import { removeTempDir, tempDir } from "./resources.ts";
import { startChild } from "./servers.ts";

/** The start-to-ready rows: a fresh and an existing weft project against the bare server. */
export async function benchStartup(): Promise<void> {
  log(`start-to-ready: ${N.starts} rotating starts each of weft (fresh project), weft (restart) and bare`);
  const existing = await tempDir();
  const once = async (kind: "fresh" | "restart" | "bare") => {
    const dir = kind === "fresh" ? await tempDir() : kind === "restart" ? existing : undefined;
    const started = await startChild(kind === "bare" ? "bare" : "weft", dir);
    await started.stop();
    if (kind === "fresh") await removeTempDir(dir!);
    return started.readyMs;
  };
  // Warm-up (module cache, page cache); this also creates the restart project's store and tokens.
  for (const kind of ["fresh", "restart", "bare"] as const) await once(kind);
  const times = { fresh: [] as number[], restart: [] as number[], bare: [] as number[] };
  const orders = [["fresh", "bare", "restart"], ["bare", "restart", "fresh"], [
    "restart",
    "fresh",
    "bare",
  ]] as const;
  for (let i = 0; i < N.starts; i++) {
    // Rotate the order so no kind always runs right after the same other one's shutdown.
    for (const kind of orders[i % orders.length]) times[kind].push(await once(kind));
  }
  await removeTempDir(existing);
  const bare = summarize(times.bare);
  ratioRow(
    "startToReady",
    "start-to-ready, weft serve (fresh project)",
    summarize(times.fresh),
    bare,
    "bare server",
    1.3,
  );
  ratioRow(
    "restartToReady",
    "start-to-ready, weft serve (existing project)",
    summarize(times.restart),
    bare,
    "bare server",
    1.3,
  );
}
