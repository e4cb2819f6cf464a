/**
 * `deno task bench`: weft's speed as ratios against a bare MCP SDK server measured in the same run.
 *
 * 1. start-to-ready of `weft serve` vs `tests/bench/bare_server.ts` (median of alternating runs);
 * 2. the `status` tool vs the bare `echo` tool (median latency on one session each);
 * 3. a Run of a human-only fixture workflow end to end over `/internal/mcp`, against the echo median;
 * 4. `list_artifacts` first page with 100 vs 20,000 stored Artifacts (seeded through the store);
 * 5. one agent handoff (claim, two tool calls, complete) on the embedded `intent` workflow over `/mcp`;
 * 6. 16 clients driving `intent` Runs (two handoffs and two confirmations each) at once: Runs per second.
 *
 * Prints a table, a Markdown section for the README and, last, one JSON line of figures. Only 127.0.0.1 is
 * contacted; every child process and temp directory is removed at the end, on error, on Ctrl-C and when the
 * overall deadline passes. `--quick` runs fewer iterations (for a smoke test).
 *
 * @module
 */

import { Client, StreamableHTTPClientTransport } from "../../src/mcp/sdk.ts";
import { unwrapToolResult } from "../../src/client/connect.ts";
import type { RunView } from "../../src/engine/views.ts";
import { FIXTURE_ANSWER, FIXTURE_FLOW, fixtureFiles, PLAN, seedArtifacts, SPECIFICATION } from "./fixture.ts";

const QUICK = Deno.args.includes("--quick");
const ROOT = new URL("../../", import.meta.url).pathname;
const MAIN = `${ROOT}main.ts`;
const BARE = `${ROOT}tests/bench/bare_server.ts`;
/** The whole run stops (and cleans up) after this long, whatever it is doing. */
const DEADLINE_MS = 240_000;
/** Any one child start or tool call taking longer than this fails the row. */
const STEP_TIMEOUT_MS = 30_000;

const N = QUICK
  ? { starts: 2, latency: 60, block: 1, runs: 5, handoffs: 5, listCalls: 40, concurrent: 16, runsEach: 1 }
  : {
    starts: 7,
    latency: 300,
    block: 1,
    runs: 30,
    handoffs: 30,
    listCalls: 200,
    concurrent: 16,
    runsEach: 4,
  };
const SEED = { small: 100, large: 20_000 };

// ---------------------------------------------------------------------------------------------------------
// Cleanup: every child and temp dir is tracked from the moment it exists.

const children = new Set<Deno.ChildProcess>();
const tempDirs = new Set<string>();
const clients = new Set<Client>();

/** Set once cleanup starts: no new child or temp dir may be made after it. */
let stopping = false;

async function cleanup(): Promise<void> {
  stopping = true;
  await Promise.allSettled([...clients].map((client) => closeClient(client)));
  for (const child of children) {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
  }
  await Promise.race([
    Promise.allSettled([...children].map((child) => child.status)),
    sleep(5000),
  ]);
  for (const child of children) {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }
  children.clear();
  for (const dir of tempDirs) await Deno.remove(dir, { recursive: true }).catch(() => {});
  tempDirs.clear();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    Deno.unrefTimer(timer);
  });
}

async function withTimeout<T>(promise: Promise<T>, what: string, ms = STEP_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function tempDir(files: Record<string, string> = {}): Promise<string> {
  if (stopping) throw new Error("stopping");
  const dir = await Deno.makeTempDir({ prefix: "weft-bench-" });
  if (stopping) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw new Error("stopping");
  }
  tempDirs.add(dir);
  for (const [path, content] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, content);
  }
  return dir;
}

async function removeTempDir(dir: string): Promise<void> {
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  tempDirs.delete(dir);
}

// ---------------------------------------------------------------------------------------------------------
// Child processes that print one JSON ready line.

interface Started {
  url: string;
  port: number;
  /** Milliseconds from spawn to the complete ready line. */
  readyMs: number;
  /** The bearer tokens (weft only). */
  tokens?: { external: string; internal: string };
  stop(): Promise<void>;
}

async function startChild(kind: "weft" | "bare", projectDir?: string, longLived = false): Promise<Started> {
  const args = kind === "weft"
    ? ["run", "-A", MAIN, "serve", "--project", projectDir!, "--port", "0"]
    : ["run", "-A", BARE, "--port", "0"];
  // Long-lived children also exit when this process dies and their stdin closes (weft supports it).
  const pipedStdin = longLived && kind === "weft";
  if (pipedStdin) args.push("--exit-with-stdin");
  if (stopping) throw new Error("stopping");
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdin: pipedStdin ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  children.add(child);
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const readLine = async () => {
    while (!buffered.includes("\n")) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += value;
    }
  };
  try {
    await withTimeout(readLine(), `${kind} start`);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  const readyMs = performance.now() - started;
  const line = buffered.slice(0, buffered.indexOf("\n"));
  const drained = (async () => {
    while (!(await reader.read()).done) { /* keep the pipe flowing */ }
  })();
  let ready: { ready?: boolean; url?: string; port?: number };
  try {
    ready = JSON.parse(line);
  } catch {
    ready = {};
  }
  if (!ready.ready) {
    child.kill("SIGKILL");
    await child.status;
    children.delete(child);
    throw new Error(`${kind} did not start: ${line || "(no ready line)"} ${(await stderr).slice(0, 500)}`);
  }
  let tokens: Started["tokens"];
  if (kind === "weft") {
    const connection = JSON.parse(await Deno.readTextFile(`${projectDir}/.weft/connection.json`));
    tokens = { external: connection.externalToken, internal: connection.internalToken };
  }
  return {
    url: ready.url!,
    port: ready.port!,
    readyMs,
    tokens,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await withTimeout(child.status, `${kind} stop`, 10_000).catch(() => child.kill("SIGKILL"));
      await child.status;
      await Promise.allSettled([drained, stderr, pipedStdin ? child.stdin.close() : undefined]);
      children.delete(child);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// MCP clients.

async function connect(server: Started, path: string): Promise<Client> {
  const client = new Client({ name: "weft-bench", version: "0.0.0" }, { capabilities: {} });
  const token = path.startsWith("/internal") ? server.tokens?.internal : server.tokens?.external;
  const transport = new StreamableHTTPClientTransport(new URL(path, server.url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
  await withTimeout(client.connect(transport), `connect ${path}`);
  clients.add(client);
  return client;
}

async function closeClient(client: Client): Promise<void> {
  clients.delete(client);
  const transport = client.transport as StreamableHTTPClientTransport | undefined;
  await transport?.terminateSession().catch(() => {});
  await client.close().catch(() => {});
}

/** Calls a weft tool, returning its structured result or throwing its classified error. */
async function call<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  return unwrapToolResult<T>(await withTimeout(client.callTool({ name, arguments: args }), name));
}

async function echo(client: Client): Promise<void> {
  const result = await withTimeout(client.callTool({ name: "echo", arguments: { text: "ping" } }), "echo");
  if (result.isError) throw new Error("echo failed");
}

// ---------------------------------------------------------------------------------------------------------
// Statistics.

interface Sample {
  n: number;
  median: number;
  p90: number;
  min: number;
}

function summarize(values: number[]): Sample {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const mid = sorted.length / 2;
  const median = sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { n: sorted.length, median: round(median), p90: round(at(0.9)), min: round(sorted[0]) };
}

function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * Runs `a` and `b` alternately in blocks (which goes first swaps every round), so drift in the load of a
 * shared machine affects both the same way.
 */
async function alternate(
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

// ---------------------------------------------------------------------------------------------------------
// Results.

interface Row {
  key: string;
  metric: string;
  unit: string;
  weft: number | null;
  baseline: number | null;
  baselineLabel: string;
  ratio: number | null;
  aim: string;
  /** Whether the aim is met; null when there is no aim or no figure. */
  met: boolean | null;
  note?: string;
  detail?: Record<string, unknown>;
}

const rows: Row[] = [];

function ratioRow(
  key: string,
  metric: string,
  weft: Sample,
  baseline: Sample,
  baselineLabel: string,
  aim: number | null,
  detail: Record<string, unknown> = {},
): void {
  const ratio = round(weft.median / baseline.median, 2);
  rows.push({
    key,
    metric,
    unit: "ms",
    weft: weft.median,
    baseline: baseline.median,
    baselineLabel,
    ratio,
    aim: aim === null ? "—" : `≤ ${aim}×`,
    met: aim === null ? null : ratio <= aim,
    detail: { weft, baseline, ...detail },
  });
  log(`  ${metric}: ${fmt(weft.median)} ms vs ${fmt(baseline.median)} ms → ${ratio}×`);
}

function failedRow(key: string, metric: string, aim: string, reason: string): void {
  rows.push({
    key,
    metric,
    unit: "ms",
    weft: null,
    baseline: null,
    baselineLabel: "",
    ratio: null,
    aim,
    met: null,
    note: `n/a: ${reason}`,
  });
  log(`  ${metric}: n/a (${reason})`);
}

function fmt(value: number | null): string {
  if (value === null) return "n/a";
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function log(message: string): void {
  console.error(message);
}

function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, " ").slice(0, 200);
}

// ---------------------------------------------------------------------------------------------------------
// The measurements.

async function benchStartup(): Promise<void> {
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

async function benchLatency(weftServer: Started, bare: Client): Promise<void> {
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
  } finally {
    await closeClient(weft);
  }
}

/**
 * Times `op` `count` times after `warmup` untimed runs; after each, times `echoes` bare echo calls, so the
 * baseline is measured in the same moments as the operation (the load of a shared machine drifts).
 */
async function pairedWithEcho(
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
    for (let e = 0; e < echoes; e++) echoTimes.push(await timed(() => echo(bare)));
  }
  return [times, echoTimes];
}

async function benchFixtureRun(weftServer: Started, bare: Client): Promise<void> {
  log(
    `fixture Run: ${N.runs} Runs of ${FIXTURE_FLOW} (flow → answer_ask → confirm → completed) on /internal/mcp`,
  );
  const cli = await connect(weftServer, "/internal/mcp");
  try {
    const oneRun = async () => {
      let run = (await call<{ run: RunView }>(cli, "flow", { flowName: FIXTURE_FLOW, intent: "bench" })).run;
      if (run.pendingAction?.kind !== "user_ask_questions") throw new Error(`unexpected Run: ${run.status}`);
      run = (await call<{ run: RunView }>(cli, "answer_ask", {
        runId: run.runId,
        actionId: run.pendingAction.id,
        answer: FIXTURE_ANSWER,
      })).run;
      if (run.pendingAction?.kind !== "user_ask_confirmation") {
        throw new Error(`unexpected Run: ${run.status}`);
      }
      run = (await call<{ run: RunView }>(cli, "answer_ask", {
        runId: run.runId,
        actionId: run.pendingAction.id,
        answer: { isConfirmed: true },
      })).run;
      if (run.status !== "completed") throw new Error(`Run ended ${run.status}`);
    };
    const [times, echoes] = await pairedWithEcho(N.runs, 3, 3, bare, oneRun);
    ratioRow(
      "fixtureRun",
      "fixture Run end to end (3 calls)",
      summarize(times),
      summarize(echoes),
      "bare echo",
      null,
    );
  } catch (error) {
    failedRow("fixtureRun", "fixture Run end to end (3 calls)", "—", reason(error));
  } finally {
    await closeClient(cli);
  }
}

/** Starts an `intent` Run on `client` and returns it waiting for its first agent call. */
async function startIntentRun(client: Client, intent: string): Promise<RunView> {
  const run = (await call<{ run: RunView }>(client, "flow", { flowName: "intent", intent })).run;
  if (run.pendingAgentCall?.phase !== "available") throw new Error(`no agent call to claim (${run.status})`);
  return run;
}

/** The four calls of a handoff, in order. */
const HANDOFF_STEPS = [
  "claim_agent_call",
  "call_agent_tool get_context",
  "call_agent_tool submit",
  "complete_agent_call",
];

/**
 * One handoff: claim, read the context, submit the stage's value, complete; returns the continued Run.
 * When `steps` is given, each call's milliseconds are appended to `steps[index]`.
 */
async function handoff(
  client: Client,
  run: RunView,
  claimId: string,
  submit: "spec" | "plan",
  steps?: number[][],
): Promise<RunView> {
  let last = performance.now();
  const lap = (index: number) => {
    const now = performance.now();
    steps?.[index].push(now - last);
    last = now;
  };
  const ref = { runId: run.runId, callId: run.pendingAgentCall!.id };
  const { ownerToken } = await call<{ ownerToken: string }>(client, "claim_agent_call", { ...ref, claimId });
  lap(0);
  const owner = { ...ref, ownerToken };
  await call(client, "call_agent_tool", { ...owner, toolCallId: "ctx", toolId: "get_context", input: {} });
  lap(1);
  await call(client, "call_agent_tool", {
    ...owner,
    toolCallId: "submit",
    toolId: submit === "spec" ? "submit_specification" : "submit_plan",
    input: { value: submit === "spec" ? SPECIFICATION : PLAN },
  });
  lap(2);
  const result = { ...owner, result: { outcome: "ready" } };
  const next = (await call<{ run: RunView }>(client, "complete_agent_call", result)).run;
  lap(3);
  if (next.pendingAction?.kind !== "user_ask_confirmation") {
    throw new Error(`after completion the Run is ${next.status} without a confirmation`);
  }
  return next;
}

async function confirm(client: Client, run: RunView): Promise<RunView> {
  const args = { runId: run.runId, actionId: run.pendingAction!.id, answer: { isConfirmed: true } };
  return (await call<{ run: RunView }>(client, "answer_ask", args)).run;
}

async function benchHandoff(weftServer: Started, bare: Client): Promise<void> {
  const metric = "agent handoff (claim, 2 tools, complete)";
  log(`agent handoff: ${N.handoffs} handoffs on the intent workflow over /mcp`);
  let ide: Client | undefined;
  try {
    ide = await connect(weftServer, "/mcp");
    const client = ide;
    const runs: RunView[] = [];
    for (let i = 0; i < N.handoffs + 3; i++) runs.push(await startIntentRun(client, `bench handoff ${i}`));
    const steps: number[][] = HANDOFF_STEPS.map(() => []);
    const [times, echoes] = await pairedWithEcho(N.handoffs, 3, 4, bare, async (i) => {
      await handoff(client, runs[i], `agent-${i}`, "spec", i >= 3 ? steps : undefined);
    });
    for (const run of runs) await call(client, "cancel_run", { runId: run.runId });
    const bySteps = Object.fromEntries(HANDOFF_STEPS.map((name, i) => [name, summarize(steps[i]).median]));
    ratioRow("agentHandoff", metric, summarize(times), summarize(echoes), "bare echo", 6, {
      stepMedians: bySteps,
    });
    log(`    per call (median ms): ${JSON.stringify(bySteps)}`);
  } catch (error) {
    failedRow("agentHandoff", metric, "≤ 6×", reason(error));
  } finally {
    if (ide) await closeClient(ide);
  }
}

async function benchConcurrent(weftServer: Started): Promise<void> {
  const metric = `${N.concurrent} clients at once, ${N.runsEach} intent Run(s) each`;
  log(
    `concurrency: ${N.concurrent} clients on /mcp, ${N.runsEach} full intent Runs each (2 handoffs + 2 confirmations)`,
  );
  const errors: string[] = [];
  let completed = 0;
  let handoffs = 0;
  const runTimes: number[] = [];
  const drivers: Client[] = [];
  try {
    for (let c = 0; c < N.concurrent; c++) drivers.push(await connect(weftServer, "/mcp"));
    const started = performance.now();
    await Promise.all(drivers.map(async (client, c) => {
      for (let r = 0; r < N.runsEach; r++) {
        const runStarted = performance.now();
        try {
          let run = await startIntentRun(client, `bench concurrent ${c}.${r}`);
          run = await handoff(client, run, `agent-${c}`, "spec");
          handoffs++;
          run = await confirm(client, run);
          if (run.pendingAgentCall?.phase !== "available") throw new Error(`no plan call (${run.status})`);
          run = await handoff(client, run, `agent-${c}`, "plan");
          handoffs++;
          run = await confirm(client, run);
          if (run.status !== "completed") throw new Error(`Run ended ${run.status}`);
          completed++;
          runTimes.push(performance.now() - runStarted);
        } catch (error) {
          errors.push(reason(error));
        }
      }
    }));
    const seconds = (performance.now() - started) / 1000;
    const runsPerSecond = round(completed / seconds, 2);
    rows.push({
      key: "concurrentRuns",
      metric,
      unit: "Runs/s",
      weft: runsPerSecond,
      baseline: null,
      baselineLabel: "",
      ratio: null,
      aim: "0 errors",
      met: errors.length === 0,
      note:
        `${completed} Runs, ${handoffs} handoffs (${round(handoffs / seconds, 1)}/s) in ${
          round(seconds, 2)
        } s, ` +
        `${errors.length} errors`,
      detail: {
        completed,
        handoffs,
        seconds: round(seconds, 2),
        runsPerSecond,
        handoffsPerSecond: round(handoffs / seconds, 2),
        errors: errors.length,
        firstErrors: errors.slice(0, 3),
        runLatency: runTimes.length ? summarize(runTimes) : null,
      },
    });
    log(`  ${completed} Runs in ${round(seconds, 2)} s → ${runsPerSecond} Runs/s, ${errors.length} errors`);
    if (errors.length) log(`  first error: ${errors[0]}`);
  } catch (error) {
    failedRow("concurrentRuns", metric, "0 errors", reason(error));
  } finally {
    await Promise.allSettled(drivers.map(closeClient));
  }
}

async function benchListArtifacts(): Promise<void> {
  const metric = `list_artifacts first page, ${SEED.large} vs ${SEED.small} Artifacts`;
  log(`list_artifacts: seeding ${SEED.small} and ${SEED.large} Artifacts through the store`);
  const servers: Started[] = [];
  try {
    const smallDir = await tempDir();
    const largeDir = await tempDir();
    const seedStarted = performance.now();
    seedArtifacts(smallDir, SEED.small);
    seedArtifacts(largeDir, SEED.large);
    log(`  seeded in ${round((performance.now() - seedStarted) / 1000, 1)} s`);
    const small = await startChild("weft", smallDir, true);
    servers.push(small);
    const large = await startChild("weft", largeDir, true);
    servers.push(large);
    const a = await connect(large, "/internal/mcp");
    const b = await connect(small, "/internal/mcp");
    const page = async (client: Client, total: number) => {
      const result = await call<{ artifacts: unknown[]; nextCursor?: string }>(client, "list_artifacts", {});
      if (result.artifacts.length !== 50 || !result.nextCursor) {
        throw new Error(`expected a full first page of ${total}, got ${result.artifacts.length}`);
      }
    };
    for (let i = 0; i < 20; i++) await page(a, SEED.large), await page(b, SEED.small);
    const [largeTimes, smallTimes] = await alternate(
      N.listCalls,
      N.block,
      () => page(a, SEED.large),
      () => page(b, SEED.small),
    );
    // `status` reports counts of Artifacts and Records, so it reads the same stores: informational.
    for (let i = 0; i < 10; i++) await call(a, "status"), await call(b, "status");
    const [largeStatus, smallStatus] = await alternate(
      N.listCalls / 2,
      N.block,
      () => call(a, "status"),
      () => call(b, "status"),
    );
    ratioRow(
      "listArtifacts",
      metric,
      summarize(largeTimes),
      summarize(smallTimes),
      `${SEED.small} Artifacts`,
      1.5,
      { pageSize: 50 },
    );
    ratioRow(
      "statusLargeStore",
      `status with ${SEED.large} vs ${SEED.small} Artifacts`,
      summarize(largeStatus),
      summarize(smallStatus),
      `${SEED.small} Artifacts`,
      null,
    );
  } catch (error) {
    failedRow("listArtifacts", metric, "≤ 1.5×", reason(error));
  } finally {
    for (const client of [...clients]) await closeClient(client);
    for (const server of servers) await server.stop();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Output.

function table(): string {
  const header = ["metric", "weft", "baseline", "ratio", "aim", ""];
  const body = rows.map((row) => [
    row.metric,
    row.weft === null ? "n/a" : `${fmt(row.weft)} ${row.unit}`,
    row.baseline === null ? "—" : `${fmt(row.baseline)} ${row.unit} (${row.baselineLabel})`,
    row.ratio === null ? "—" : `${row.ratio.toFixed(2)}×`,
    row.aim,
    row.met === null ? (row.note ?? "") : `${row.met ? "ok" : "MISSED"}${row.note ? ` — ${row.note}` : ""}`,
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((cells) => cells[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

function markdown(meta: Record<string, unknown>): string {
  const lines = [
    "## Performance",
    "",
    `Measured by \`deno task bench\` on ${meta.cpus} cores (${meta.os}, Deno ${meta.deno}), ${meta.date}. ` +
    "Speed is given as ratios against a bare MCP SDK server (one low-level `Server` with an `echo` tool per " +
    "sessionful Streamable HTTP transport, `Deno.serve` on 127.0.0.1) measured in the same run; " +
    "absolute times vary with the machine. Medians; latencies are interleaved call by call with their " +
    "baseline so both see the same machine load.",
    "",
    "| Metric | weft | Baseline | Ratio | Aim | Met |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows.map((row) => {
      const weft = row.weft === null ? "n/a" : `${fmt(row.weft)} ${row.unit}`;
      const baseline = row.baseline === null
        ? "—"
        : `${fmt(row.baseline)} ${row.unit} (${row.baselineLabel})`;
      const ratio = row.ratio === null ? "—" : `${row.ratio.toFixed(2)}×`;
      const met = row.met === null ? "—" : row.met ? "yes" : "no";
      return `| ${row.metric} | ${weft} | ${baseline} | ${ratio} | ${row.aim} | ${met}${
        row.note ? ` (${row.note})` : ""
      } |`;
    }),
    "",
    "Start-to-ready is the time from spawning `deno run -A main.ts serve --project DIR --port 0` to its " +
    "ready line, in a fresh project (store created, tokens generated) or in one that has run before. The fixture Run is `flow` → `answer_ask` (questions) → `answer_ask` " +
    "(confirmation) → `completed` on `/internal/mcp`. A handoff is `claim_agent_call`, two `call_agent_tool` " +
    "calls and `complete_agent_call` on `/mcp`; the concurrent row drives whole `intent` Runs (two handoffs " +
    "and two confirmations each) from 16 `/mcp` sessions at once. `list_artifacts` reads its default first " +
    "page of 50 from stores seeded with 100 and 20,000 distinct (flowName, stageName) Artifacts.",
  ];
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const started = performance.now();
  const meta = {
    date: new Date().toISOString().slice(0, 10),
    deno: Deno.version.deno,
    os: `${Deno.build.os}/${Deno.build.arch}`,
    cpus: navigator.hardwareConcurrency,
    quick: QUICK,
  };

  await benchStartup().catch((error) => {
    failedRow("startToReady", "start-to-ready, weft serve", "≤ 1.3×", reason(error));
  });

  const projectDir = await tempDir({ ...fixtureFiles(), "README.md": "# bench\n" });
  let weftServer: Started | undefined;
  let bareServer: Started | undefined;
  let measured = false;
  try {
    weftServer = await startChild("weft", projectDir, true);
    bareServer = await startChild("bare", undefined, true);
    const bare = await connect(bareServer, "/mcp");
    await benchLatency(weftServer, bare);
    measured = true;
    await benchFixtureRun(weftServer, bare);
    await benchHandoff(weftServer, bare);
    await closeClient(bare);
    await benchConcurrent(weftServer);
  } catch (error) {
    if (!measured) failedRow("statusLatency", "status tool latency", "≤ 1.2×", reason(error));
    log(`  stopped early: ${reason(error)}`);
  } finally {
    for (const client of [...clients]) await closeClient(client);
    await weftServer?.stop();
    await bareServer?.stop();
  }
  await benchListArtifacts();

  const seconds = round((performance.now() - started) / 1000, 1);
  console.log("");
  console.log(table());
  console.log("");
  console.log(markdown(meta));
  console.log("");
  const figures: Record<string, unknown> = { ...meta, seconds, iterations: N };
  for (const row of rows) {
    figures[row.key] = {
      metric: row.metric,
      unit: row.unit,
      weft: row.weft,
      baseline: row.baseline,
      ratio: row.ratio,
      aim: row.aim,
      met: row.met,
      ...(row.note ? { note: row.note } : {}),
      ...(row.detail ?? {}),
    };
  }
  console.log(JSON.stringify(figures));
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
    log(stopping ? "bench: interrupted" : `bench failed: ${error instanceof Error ? error.stack : error}`);
  } finally {
    await cleanup();
    clearTimeout(deadline);
    Deno.removeSignalListener("SIGINT", interrupt);
  }
  Deno.exit(code);
}
