/**
 * The soak (`deno task soak`): many concurrent MCP sessions against one `weft serve` for a bounded time, each
 * a realistic mix of starting Runs, answering, claiming and completing agent calls, cancelling, reading Runs
 * and paging lists. Reports throughput, p50/p99 per tool, unexpected errors (must be 0) and the server's
 * resident memory before and after; then the same number of sessions calling a bare MCP SDK server's `echo`
 * for the same time, weft's end RSS as a ratio to the bare server's, and one idle session's memory on each
 * (`--no-bare` skips the comparison). With `subscribe`, every session also subscribes to each Run it starts
 * (and unsubscribes when it ends), as an agent that waits on notifications would (the bench compares both).
 *
 * The service runs as a client starts it from a checkout, from `serviceMainPath` with `serviceDenoFlags` and
 * `serviceEnv` (src/client/self_command.ts); with `--compiled-flags` it runs from `main.ts` with the V8 flags
 * the compiled executable has built in (`tests/build/compile.ts`) instead, and with `--deno-defaults` with none
 * (as `deno task serve` runs it). The bare server runs from the same checkout with the service's Deno flags but
 * its V8 ones: it takes its packages from `node_modules/` as the service does (in Deno's default mode it would
 * also keep the parsed registry records of deno.json's packages), while the young generation's size is weft's
 * own choice.
 *
 * Usage: `deno task soak [--sessions N] [--seconds N] [--seed N] [--no-bare] [--compiled-flags | --deno-defaults]`. A test bounds it by rounds per
 * session instead of by time, so what it checks does not depend on the speed of the machine.
 *
 * @module
 */

import type { Client } from "../support/sdk_test_client.ts";
import type { RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient, serve } from "../support/service.ts";
import { Actor, proofProject } from "./support.ts";
import { numberArg, Prng, seedFrom } from "./prng.ts";
import { V8_FLAGS } from "../build/compile.ts";
import { serviceDenoFlags, serviceEnv, serviceMainPath } from "../../src/client/self_command.ts";
import { report, runViolations, tool } from "./probe.ts";
import { bareDenoFlags } from "../bench/servers.ts";
import {
  bareIdleSessionKiB,
  bareSoak,
  type BareSoakFigures,
  idleSessionKiB,
  processCpuMs,
  residentKiB,
} from "./memory.ts";

/** The figures of one soak. */
export interface SoakFigures {
  seed: number;
  /** The Deno flags the service ran with, when not Deno's defaults. */
  denoFlags?: string[];
  sessions: number;
  seconds: number;
  operations: number;
  opsPerSecond: number;
  /** Runs the sessions started, and the Runs the service counts afterwards by status (they must agree). */
  runsStarted: number;
  runsAfter: Record<string, number>;
  /** Sessions still open once every soak client has closed its own (the one asking included). */
  openSessionsAfter: number;
  latencyMs: Record<string, { count: number; p50: number; p99: number }>;
  rssStartKiB: number;
  rssPeakKiB: number;
  rssEndKiB: number;
  /** The service's CPU time per call over the load (its sessions' calls only), in ms. */
  cpuMsPerCall: number;
  /** What one idle open session adds to weft's resident memory. */
  idleSessionKiB?: number;
  /**
   * The same load against a bare MCP SDK server (`--bare`) started with `denoFlags`, and weft's end RSS as a
   * ratio to its own.
   */
  bare?: BareSoakFigures & { denoFlags: string[]; idleSessionKiB: number; rssEndRatio: number };
  violations: string[];
}

/** Idle sessions opened to measure what one costs. */
const IDLE_SESSIONS = 32;

/** Paths the sessions are spread over; the agent-task tools exist only on the external ones. */
const PATHS = ["/mcp", "/mcp/codex", "/mcp", "/internal/mcp"];

/** How long a soak lasts (rounds per session, seconds, or both) and whether a bare server is measured too. */
export interface SoakOptions {
  sessions: number;
  seed: number;
  seconds?: number;
  rounds?: number;
  bare?: boolean;
  /** Every session subscribes to each Run it starts. */
  subscribe?: boolean;
  /**
   * The Deno flags the service runs with: a client's (`serviceDenoFlags`, the default), the compiled
   * executable's V8 flags, or Deno's defaults.
   */
  flags?: "client" | "compiled" | "defaults";
}

/** The `deno run` flags that `flags` names for the service of the checkout's `main`. */
function denoFlagsOf(flags: SoakOptions["flags"], main: string): string[] {
  if (flags === "defaults") return [];
  return flags === "compiled" ? [V8_FLAGS] : serviceDenoFlags(main);
}

/** Runs the soak and returns its figures; unexpected errors are collected as violations. */
export async function soak(
  options: SoakOptions,
): Promise<SoakFigures> {
  const dir = await proofProject();
  try {
    return await soakIn(dir, options);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The soak in the project `dir`; the service is stopped whatever happens. */
async function soakIn(
  dir: string,
  options: SoakOptions,
): Promise<SoakFigures> {
  const prng = new Prng(options.seed);
  const main = new URL("../../main.ts", import.meta.url).pathname;
  const denoFlags = denoFlagsOf(options.flags, main);
  // A client's service also runs with the environment a client adds (`serviceEnv`), from the module a client
  // starts it from (`serviceMainPath`).
  const client = options.flags === undefined || options.flags === "client";
  const env = client ? serviceEnv() : undefined;
  const module = client ? serviceMainPath(main) : main;
  const served = await serve(
    dir,
    denoFlags.length ? { program: ["run", "-A", ...denoFlags, module], env } : {},
  );
  try {
    const latencies = new Map<string, number[]>();
    const violations: string[] = [];
    const clients: Client[] = [];
    let rssPeakKiB = 0;
    const rssStartKiB = residentKiB(served.pid);
    const idle = options.bare
      ? await idleSessionKiB(served.pid, IDLE_SESSIONS, () => mcpClient(served, "/mcp", { name: "idle" }))
      : undefined;
    let operations = 0;
    let runsStarted = 0;
    let runsAfter: Record<string, number> = {};
    let openSessionsAfter = -1;
    let cpuMs = 0;
    const started = performance.now();
    try {
      for (let i = 0; i < options.sessions; i++) {
        const path = PATHS[i % PATHS.length];
        clients.push(timed(await mcpClient(served, path, { name: `soak-${i}` }), latencies));
      }
      // The person, at the terminal, answers what only a person may answer for every session.
      const person = timed(await mcpClient(served, "/internal/mcp", { name: "soak-person" }), latencies);
      clients.push(person);
      const limit = {
        deadline: options.seconds === undefined ? Infinity : performance.now() + options.seconds * 1000,
        rounds: options.rounds ?? Infinity,
      };
      const sampler = setInterval(() => rssPeakKiB = Math.max(rssPeakKiB, residentKiB(served.pid)), 250);
      const cpuStart = processCpuMs(served.pid);
      try {
        const counts = await Promise.all(
          clients.slice(0, options.sessions).map((client, i) => {
            const actor = new Actor(`s${i}`, new Prng(prng.int(0, 2 ** 31)), client, new Map(), person);
            return session(actor, PATHS[i % PATHS.length], limit, violations, options.subscribe === true);
          }),
        );
        operations = counts.reduce((sum, count) => sum + count.calls, 0);
        runsStarted = counts.reduce((sum, count) => sum + count.runs, 0);
        cpuMs = processCpuMs(served.pid) - cpuStart;
      } finally {
        clearInterval(sampler);
      }
    } finally {
      await Promise.all(clients.map((client) => closeClient(client).catch(() => {})));
    }
    const checker = await mcpClient(served, "/internal/mcp", { name: "soak-check" });
    try {
      violations.push(...await everyRunViolations(checker));
      const { service } = await call<
        { service: { counts: { runs: Record<string, number>; sessions: { open: number } } } }
      >(checker, "status");
      runsAfter = service.counts.runs;
      openSessionsAfter = service.counts.sessions.open;
    } finally {
      await closeClient(checker);
    }
    const elapsed = (performance.now() - started) / 1000;
    const rssEndKiB = residentKiB(served.pid);
    await served.stop();
    let bare: SoakFigures["bare"];
    if (options.bare) {
      const bareFlags = bareDenoFlags(denoFlags);
      const load = await bareSoak(options.sessions, options.seconds ?? elapsed, bareFlags);
      const idleBare = await bareIdleSessionKiB(IDLE_SESSIONS, bareFlags);
      bare = {
        ...load,
        denoFlags: bareFlags,
        idleSessionKiB: idleBare,
        rssEndRatio: Math.round(rssEndKiB / load.rssEndKiB * 100) / 100,
      };
    }
    return {
      seed: options.seed,
      ...(denoFlags.length ? { denoFlags } : {}),
      sessions: options.sessions,
      seconds: Math.round(elapsed * 10) / 10,
      operations,
      opsPerSecond: Math.round(operations / elapsed),
      runsStarted,
      runsAfter,
      openSessionsAfter,
      latencyMs: summarize(latencies),
      rssStartKiB,
      rssPeakKiB: Math.max(rssPeakKiB, rssEndKiB),
      rssEndKiB,
      cpuMsPerCall: Math.round(cpuMs / operations * 1000) / 1000,
      ...(idle === undefined ? {} : { idleSessionKiB: idle }),
      ...(bare ? { bare } : {}),
      violations,
    };
  } finally {
    await served.stop();
  }
}

/** One session's loop for its rounds or until the deadline; returns how many tool calls and Runs it made. */
async function session(
  actor: Actor,
  path: string,
  limit: { deadline: number; rounds: number },
  violations: string[],
  subscribe: boolean,
): Promise<{ calls: number; runs: number }> {
  const external = !path.startsWith("/internal");
  const runs = new Map<string, RunView>();
  let calls = 0;
  let started = 0;
  const call = async <T>(name: string, args: Record<string, unknown>): Promise<T | undefined> => {
    calls++;
    const outcome = await tool<T>(actor.client, name, args);
    if (outcome.ok) return outcome.value;
    violations.push(`${path} ${name}: ${outcome.text}`);
    return undefined;
  };
  for (let round = 0; round < limit.rounds && performance.now() < limit.deadline; round++) {
    const roll = actor.prng.next();
    const active = [...runs.values()].filter((run) => run.status === "waiting");
    if (roll < 0.15 || active.length === 0) {
      const flowName = external && actor.prng.chance(0.5) ? "intent" : "ledger";
      const run = (await call<{ run: RunView }>("flow", { flowName, intent: `soak ${actor.name}` }))?.run;
      if (run) {
        runs.set(run.runId, run);
        started++;
      }
      if (run && subscribe) {
        calls++;
        await actor.client.subscribeResource({ uri: `weft://runs/${run.runId}` });
      }
    } else if (roll < 0.2) {
      const run = actor.prng.pick(active);
      const cancelled = (await call<{ run: RunView }>("cancel_run", { runId: run.runId }))?.run;
      if (cancelled) runs.set(run.runId, cancelled);
    } else if (roll < 0.3) {
      const run = (await call<{ run: RunView }>("get_run", { runId: actor.prng.pick(active).runId }))?.run;
      if (run) violations.push(...runViolations(run));
    } else if (roll < 0.38) {
      await pageThrough(call, actor.prng.chance(0.5) ? "list_runs" : "list_artifacts");
    } else {
      const run = actor.prng.pick(active);
      const advance = await actor.advance(run);
      calls += advance.calls.length;
      for (const { name, outcome } of advance.calls) {
        if (!outcome.ok) violations.push(`${path} ${name}: ${outcome.text}`);
      }
      if (advance.run) runs.set(run.runId, advance.run);
    }
    // Finished Runs are dropped, as a client would, so what the service keeps for them is what is measured.
    for (const [runId, run] of runs) {
      if (run.status === "waiting") continue;
      runs.delete(runId);
      if (!subscribe) continue;
      calls++;
      await actor.client.unsubscribeResource({ uri: `weft://runs/${runId}` });
    }
  }
  return { calls, runs: started };
}

/** Every Run the service holds, each checked for a sound shape. */
async function everyRunViolations(client: Client): Promise<string[]> {
  const problems: string[] = [];
  let cursor: string | undefined;
  do {
    const page: { runs: RunView[]; nextCursor?: string } = await call(client, "list_runs", {
      limit: 200,
      ...(cursor ? { cursor } : {}),
    });
    for (const run of page.runs) problems.push(...runViolations(run));
    cursor = page.nextCursor;
  } while (cursor);
  return problems;
}

type Caller = <T>(name: string, args: Record<string, unknown>) => Promise<T | undefined>;

/** Follows `nextCursor` for up to three pages of ten. */
async function pageThrough(call: Caller, name: "list_runs" | "list_artifacts"): Promise<void> {
  let cursor: string | undefined;
  for (let page = 0; page < 3; page++) {
    const result = await call<{ nextCursor?: string }>(name, { limit: 10, ...(cursor ? { cursor } : {}) });
    cursor = result?.nextCursor;
    if (!cursor) return;
  }
}

/** Wraps `client.callTool` so every call's latency is recorded under its tool name. */
function timed(client: Client, latencies: Map<string, number[]>): Client {
  const original = client.callTool.bind(client);
  client.callTool = async (params, ...rest) => {
    const begin = performance.now();
    try {
      return await original(params, ...rest);
    } finally {
      const list = latencies.get(params.name) ?? [];
      list.push(performance.now() - begin);
      latencies.set(params.name, list);
    }
  };
  return client;
}

function summarize(latencies: Map<string, number[]>): SoakFigures["latencyMs"] {
  const summary: SoakFigures["latencyMs"] = {};
  for (const [name, values] of [...latencies].sort(([a], [b]) => a < b ? -1 : 1)) {
    const sorted = values.toSorted((a, b) => a - b);
    const at = (q: number) =>
      Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] * 10) / 10;
    summary[name] = { count: sorted.length, p50: at(0.5), p99: at(0.99) };
  }
  return summary;
}

if (import.meta.main) {
  const figures = await soak({
    sessions: numberArg(Deno.args, "sessions", 64),
    seconds: numberArg(Deno.args, "seconds", 60),
    seed: seedFrom(Deno.args, 7),
    bare: !Deno.args.includes("--no-bare"),
    flags: Deno.args.includes("--compiled-flags")
      ? "compiled"
      : Deno.args.includes("--deno-defaults")
      ? "defaults"
      : "client",
  });
  report("soak", figures);
  Deno.exit(figures.violations.length === 0 ? 0 : 1);
}
