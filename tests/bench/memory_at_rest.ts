/**
 * Memory at rest: a started service that answered one `status` and was then left quiet, against the bare
 * server left the same way after one `echo`. One start of each side says little (two such runs read 1.25× and
 * 1.30×), so `N.restPairs` pairs are started one after another, the side that starts first alternating, and
 * each pair is read once both of its servers have been quiet for the same seconds: all of them rest at once,
 * so the row takes one rest, not one per pair. The weft side is started as a client starts the service from
 * this checkout, from `serviceMainPath` with `serviceDenoFlags` and `serviceEnv`; the bare side with the same
 * flags but V8's, and the environment of this process. The bundle row does the same with `deno task bundle`'s
 * weft.js against the bare server bundled alike, each run from its own folder.
 *
 * @module
 */

import { N, REST_SECONDS } from "./config.ts";
import { call, connect, echo } from "./clients.ts";
import { round, summarize } from "./measure.ts";
import { failedRow, log, valueRow } from "./report.ts";
import { closeClient, removeTempDir, tempDir } from "./resources.ts";
import { bareDenoFlags, startChild, type Started } from "./servers.ts";
import { buildBundle } from "../build/bundle.ts";
import { residentKiB } from "../proof/memory.ts";
import { serviceDenoFlags, serviceEnv, serviceMainPath } from "../../src/client/self_command.ts";

/** This checkout's main module. */
const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** The environment a client adds to the service it starts (one `malloc` arena). */
const WEFT_ENV = serviceEnv();

const METRIC = `resident memory after one call and ${REST_SECONDS} s quiet (memory at rest)`;
const BUNDLE_METRIC = `${METRIC}, from the bundles`;

/** Where each side's program is: this checkout's modules, or a bundle file for each. */
interface Programs {
  weft?: string;
  bare?: string;
}

/** One weft service and one bare server, each used once, and when both had been used. */
interface Pair {
  weft: Started;
  bare: Started;
  usedAt: number;
}

/** The memory-at-rest row: medians over the pairs, with each pair's ratio in the detail. */
export function benchMemoryAtRest(): Promise<void> {
  return restRow("memoryAtRest", METRIC, {});
}

/**
 * The same row from `deno task bundle`'s weft.js against the bare server bundled alike. Each bundle is started
 * once first and stopped: Deno parses a file it has not seen (its dependency analysis, cached by the file's
 * text) at the first start, and the allocator keeps the ~55 MB that parse freed, which a bundle's later
 * starts, and a service a client starts from it, never pay (docs/performance.md).
 */
export async function benchBundleMemoryAtRest(): Promise<void> {
  const weftDir = await tempDir();
  const bareDir = await tempDir();
  try {
    const programs = { weft: `${weftDir}/weft.js`, bare: `${bareDir}/bare.js` };
    await buildBundle("main.ts", programs.weft);
    await buildBundle("tests/bench/bare_server.ts", programs.bare);
    const project = await tempDir();
    const { weft, bare } = flags(programs);
    await (await startChild("weft", project, false, programs.weft, [], { denoFlags: weft })).stop();
    await (await startChild("bare", undefined, false, programs.bare, [], { denoFlags: bare })).stop();
    await removeTempDir(project);
    await restRow("bundleMemoryAtRest", BUNDLE_METRIC, programs);
  } finally {
    for (const dir of [weftDir, bareDir]) await removeTempDir(dir);
  }
}

async function restRow(key: string, metric: string, programs: Programs): Promise<void> {
  const from = programs.weft ? "weft.js serve and bare.js" : "weft serve and the bare server";
  log(`${metric}: ${N.restPairs} pairs of ${from}, one call each, then ${REST_SECONDS} s quiet`);
  const started: Started[] = [];
  try {
    const pairs: Pair[] = [];
    for (let i = 0; i < N.restPairs; i++) pairs.push(await startPair(i % 2 === 0, started, programs));
    const weftMiB: number[] = [];
    const bareMiB: number[] = [];
    const ratios: number[] = [];
    for (const pair of pairs) {
      const wait = pair.usedAt + REST_SECONDS * 1000 - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const weft = residentKiB(pair.weft.pid) / 1024;
      const bare = residentKiB(pair.bare.pid) / 1024;
      weftMiB.push(weft);
      bareMiB.push(bare);
      ratios.push(round(weft / bare, 2));
    }
    const ratio = summarize(ratios);
    log(`  ratios of the pairs: ${ratios.join(", ")} (median ${ratio.median})`);
    valueRow(
      key,
      metric,
      round(summarize(weftMiB).median, 1),
      round(summarize(bareMiB).median, 1),
      "bare server at rest",
      "MB",
      1.2,
      {
        pairs: N.restPairs,
        ratios,
        medianRatio: ratio.median,
        range: [Math.min(...ratios), Math.max(...ratios)],
        weftMiB: weftMiB.map((value) => round(value, 1)),
        bareMiB: bareMiB.map((value) => round(value, 1)),
        weftFlags: flags(programs).weft,
        weftEnv: WEFT_ENV,
        bareFlags: flags(programs).bare,
      },
    );
  } catch (error) {
    failedRow(key, metric, "≤ 1.2×", String(error));
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

/** Starts one weft service and one bare server (weft first when `weftFirst`) and makes one call on each. */
async function startPair(weftFirst: boolean, started: Started[], programs: Programs): Promise<Pair> {
  const projectDir = await tempDir({ "README.md": "# bench\n" });
  const denoFlags = flags(programs);
  const startWeft = async () => {
    const weft = await startChild("weft", projectDir, true, programs.weft, [], {
      denoFlags: denoFlags.weft,
      env: WEFT_ENV,
      main: serviceMainPath(MAIN),
    });
    started.push(weft);
    return weft;
  };
  const startBare = async () => {
    const bare = await startChild("bare", undefined, false, programs.bare, [], { denoFlags: denoFlags.bare });
    started.push(bare);
    return bare;
  };
  let weft: Started;
  let bare: Started;
  if (weftFirst) {
    weft = await startWeft();
    bare = await startBare();
  } else {
    bare = await startBare();
    weft = await startWeft();
  }
  const cli = await connect(weft, "/internal/mcp");
  await call(cli, "status");
  await closeClient(cli);
  const client = await connect(bare, "/mcp");
  await echo(client);
  await closeClient(client);
  return { weft, bare, usedAt: performance.now() };
}

/**
 * The flags a client starts the service with from `programs.weft` (this checkout's main module by default; a
 * bundle has no `node_modules/`), and the bare server's beside it ({@linkcode bareDenoFlags}).
 */
function flags(programs: Programs): { weft: string[]; bare: string[] } {
  const weft = serviceDenoFlags(programs.weft ?? MAIN);
  return { weft, bare: bareDenoFlags(weft) };
}
