/**
 * Start-to-ready of `weft serve` against `tests/bench/bare_server.ts`: the median of rotating starts, from
 * source and from `deno bundle`'s single file (each against the bare server started the same way).
 *
 * @module
 */

import { N } from "./config.ts";
import { round, summarize } from "./measure.ts";
import { log, ratioRow } from "./report.ts";
import { removeTempDir, tempDir } from "./resources.ts";
import { startChild } from "./servers.ts";
import { buildBundle } from "../build/bundle.ts";

/** The start-up aim against the bare server. */
const AIM = 1.15;

/** The start-to-ready rows: a fresh and an existing weft project against the bare server. */
export async function benchStartup(): Promise<void> {
  log(`start-to-ready: ${N.starts} rotating starts each of weft (fresh project), weft (restart) and bare`);
  const existing = await tempDir();
  const cpu = { fresh: [] as number[], restart: [] as number[], bare: [] as number[] };
  const once = async (kind: "fresh" | "restart" | "bare") => {
    const dir = kind === "fresh" ? await tempDir() : kind === "restart" ? existing : undefined;
    const started = await startChild(kind === "bare" ? "bare" : "weft", dir);
    await started.stop();
    if (kind === "fresh") await removeTempDir(dir!);
    if (started.cpuMs !== undefined) cpu[kind].push(started.cpuMs);
    return started.readyMs;
  };
  // Warm-up (module cache, page cache); this also creates the restart project's store and tokens.
  for (const kind of ["fresh", "restart", "bare"] as const) await once(kind);
  for (const kind of ["fresh", "restart", "bare"] as const) cpu[kind].length = 0;
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
    AIM,
    cpuDetail(cpu.fresh, cpu.bare),
  );
  ratioRow(
    "restartToReady",
    "start-to-ready, weft serve (existing project)",
    summarize(times.restart),
    bare,
    "bare server",
    AIM,
    cpuDetail(cpu.restart, cpu.bare),
  );
}

/** The bundle row: `weft serve` from `deno bundle`'s file against the bundled bare server, each run alone. */
export async function benchBundleStartup(): Promise<void> {
  log(`start-to-ready from bundles: ${N.spawns} alternating starts of weft.js and bare.js`);
  const weftDir = await tempDir();
  const bareDir = await tempDir();
  const project = await tempDir();
  try {
    await buildBundle("main.ts", `${weftDir}/weft.js`);
    await buildBundle("tests/bench/bare_server.ts", `${bareDir}/bare.js`);
    const cpu = { weft: [] as number[], bare: [] as number[] };
    const once = async (kind: "weft" | "bare") => {
      const started = kind === "weft"
        ? await startChild("weft", project, false, `${weftDir}/weft.js`)
        : await startChild("bare", undefined, false, `${bareDir}/bare.js`);
      await started.stop();
      if (started.cpuMs !== undefined) cpu[kind].push(started.cpuMs);
      return started.readyMs;
    };
    await once("weft"), await once("bare");
    cpu.weft.length = cpu.bare.length = 0;
    const weft: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < N.spawns; i++) weft.push(await once("weft")), bare.push(await once("bare"));
    ratioRow(
      "bundleToReady",
      "start-to-ready from the bundle (existing project)",
      summarize(weft),
      summarize(bare),
      "bundled bare server",
      AIM,
      cpuDetail(cpu.weft, cpu.bare),
    );
  } finally {
    for (const dir of [weftDir, bareDir, project]) await removeTempDir(dir);
  }
}

/**
 * The on-CPU time of both sides until ready (when the machine reports it) and its ratio, kept beside the wall
 * times: on a shared machine it moves far less than they do.
 */
export function cpuDetail(weft: number[], baseline: number[]): Record<string, unknown> {
  if (!weft.length || !baseline.length) return {};
  const cpu = { weft: summarize(weft), baseline: summarize(baseline) };
  return { cpu: { ...cpu, ratio: round(cpu.weft.median / cpu.baseline.median, 2) } };
}
