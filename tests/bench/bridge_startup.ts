/**
 * `weft mcp` (the stdio bridge an IDE launches) against a bare SDK stdio server started the same way: from
 * spawn to a completed `initialize` with this project's service already running, and the IDE's cold call,
 * from spawn to `tools/list` answered when no service runs (the bridge starts it).
 *
 * @module
 */

import { N } from "./config.ts";
import { processCpuMs, summarize } from "./measure.ts";
import { cpuDetail } from "./startup.ts";
import { failedRow, log, ratioRow, reason } from "./report.ts";
import { children, removeTempDir, tempDir, withTimeout } from "./resources.ts";
import { isProcessAlive } from "../../src/weft_dir/process.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const BARE = ["run", "-A", `${ROOT}tests/bench/bare_stdio.ts`];

const line = (message: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n";
const INITIALIZE = line({
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "0" } },
});
/** What an IDE sends once `initialize` is answered: the notification, then the tools it may offer. */
const LIST_TOOLS = line({ method: "notifications/initialized" }) + line({ id: 2, method: "tools/list" });

/** What one spawn measured. */
interface SpawnTiming {
  /** Milliseconds from spawn to the last answer waited for. */
  ms: number;
  /** Milliseconds from spawn to the `initialize` answer. */
  initializeMs: number;
  /** The process's on-CPU milliseconds at the last answer (Linux only). */
  cpuMs?: number;
}

/**
 * Spawns `args`, sends `initialize` on stdin (and, with `listTools`, `tools/list` once it is answered), and
 * times the answers; `atAnswer` runs at the last answer, before stdin closes.
 */
async function spawnAndAsk(
  args: string[],
  options: { listTools?: boolean; atAnswer?: (pid: number) => void } = {},
): Promise<SpawnTiming> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  children.add(child);
  try {
    const writer = child.stdin.getWriter();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    const answer = (id: number) =>
      withTimeout(
        (async () => {
          while (!buffered.includes(`"id":${id}`)) {
            const { done, value } = await reader.read();
            if (done) throw new Error(`exited before answering request ${id}: ${buffered.slice(0, 200)}`);
            buffered += value;
          }
        })(),
        `answer ${id} of ${args.join(" ")}`,
      );
    await writer.write(new TextEncoder().encode(INITIALIZE));
    await answer(1);
    const initializeMs = performance.now() - started;
    if (options.listTools) {
      await writer.write(new TextEncoder().encode(LIST_TOOLS));
      await answer(2);
    }
    const ms = performance.now() - started;
    const cpuMs = processCpuMs(child.pid);
    options.atAnswer?.(child.pid);
    if (!buffered.includes('"result"') || buffered.includes('"error"')) {
      throw new Error(`a request failed: ${buffered.slice(0, 200)}`);
    }
    await writer.close().catch(() => {});
    await reader.cancel().catch(() => {});
    await withTimeout(child.status, "exit after stdin closed", 10_000).catch(() => child.kill("SIGKILL"));
    return { ms, initializeMs, cpuMs };
  } finally {
    await child.status.catch(() => {});
    children.delete(child);
  }
}

/** The bridge row: `weft mcp --project DIR` (its service running) against the bare stdio server. */
export async function benchBridgeStartup(projectDir: string): Promise<void> {
  const metric = "weft mcp spawn to initialize (service running)";
  log(`bridge start-up: ${N.spawns} alternating spawns of weft mcp and a bare SDK stdio server`);
  try {
    const weft = ["run", "-A", `${ROOT}main.ts`, "mcp", "--project", projectDir];
    await spawnAndAsk(weft);
    await spawnAndAsk(BARE);
    const weftTimes: number[] = [];
    const bareTimes: number[] = [];
    const weftCpu: number[] = [];
    const bareCpu: number[] = [];
    for (let i = 0; i < N.spawns; i++) {
      for (const [args, times, cpu] of [[weft, weftTimes, weftCpu], [BARE, bareTimes, bareCpu]] as const) {
        const { ms, cpuMs } = await spawnAndAsk(args);
        times.push(ms);
        if (cpuMs !== undefined) cpu.push(cpuMs);
      }
    }
    ratioRow(
      "bridgeStartup",
      metric,
      summarize(weftTimes),
      summarize(bareTimes),
      "bare stdio server",
      1.15,
      cpuDetail(weftCpu, bareCpu),
    );
  } catch (error) {
    failedRow("bridgeStartup", metric, "≤ 1.15×", reason(error));
  }
}

/**
 * The IDE's cold call: `weft mcp` spawned for a project whose service does not run, to `tools/list` answered
 * (the bridge starts the service on the way), against the bare stdio server spawned the same way. weft's
 * on-CPU time is the bridge's plus the service's it started, both at the answer; the detail says where the
 * wall time went (`initialize` answered, the service ready, the IDE's session opened there) and each
 * process's share of the CPU, with the service's whole start (at the end of the bridge's session). The
 * project is used once before measuring, so each measured start finds a `.weft/` it made (and the service's
 * answers the bridge recorded there), as a person's second day does.
 */
export async function benchColdCall(): Promise<void> {
  const metric = "weft mcp spawn to tools/list, no service running (cold call)";
  log(`cold call: ${N.spawns} alternating cold spawns of weft mcp and a bare SDK stdio server`);
  const projectDir = await tempDir({ "README.md": "# bench\n" });
  const weft = ["run", "-A", `${ROOT}main.ts`, "mcp", "--project", projectDir];
  let servicePid: number | undefined;
  const coldSpawn = async () => {
    let serviceCpu: number | undefined;
    const spawnedAt = Date.now();
    try {
      const timing = await spawnAndAsk(weft, {
        listTools: true,
        // The service may still be starting: it is found as the bridge's child, not by its connection file.
        atAnswer: (bridgePid) => {
          servicePid = childOf(bridgePid);
          serviceCpu = servicePid === undefined ? undefined : processCpuMs(servicePid);
        },
      });
      // The bridge ends its session before it exits, so the service has long been ready by now.
      const connection = JSON.parse(Deno.readTextFileSync(`${projectDir}/.weft/connection.json`));
      if (servicePid !== undefined && connection.pid !== servicePid) {
        throw new Error(`the service that runs (pid ${connection.pid}) is not the one the bridge started`);
      }
      servicePid = connection.pid;
      const serviceStartCpu = processCpuMs(servicePid!);
      // When the service was ready, and when the IDE's session reached it, from its log's timestamps.
      const events = Deno.readTextFileSync(`${projectDir}/.weft/logs/${connection.instanceId}.jsonl`).trim()
        .split("\n").map((text) => JSON.parse(text) as { at: string; event: string });
      const since = (event: string) => Date.parse(events.find((e) => e.event === event)!.at) - spawnedAt;
      return {
        ...timing,
        serviceCpu,
        serviceStartCpu,
        readyMs: since("service.started"),
        sessionMs: since("session.opened"),
      };
    } finally {
      await stopService(servicePid);
    }
  };
  try {
    await coldSpawn();
    await spawnAndAsk(BARE, { listTools: true });
    const weftTimes: number[] = [];
    const bareTimes: number[] = [];
    const initializeTimes: number[] = [];
    const readyTimes: number[] = [];
    const sessionTimes: number[] = [];
    const bridgeCpu: number[] = [];
    const serviceCpu: number[] = [];
    const serviceStartCpu: number[] = [];
    const bareCpu: number[] = [];
    for (let i = 0; i < N.spawns; i++) {
      const cold = await coldSpawn();
      weftTimes.push(cold.ms);
      initializeTimes.push(cold.initializeMs);
      readyTimes.push(cold.readyMs);
      sessionTimes.push(cold.sessionMs);
      if (cold.cpuMs !== undefined && cold.serviceCpu !== undefined) {
        bridgeCpu.push(cold.cpuMs);
        serviceCpu.push(cold.serviceCpu);
      }
      if (cold.serviceStartCpu !== undefined) serviceStartCpu.push(cold.serviceStartCpu);
      const bare = await spawnAndAsk(BARE, { listTools: true });
      bareTimes.push(bare.ms);
      if (bare.cpuMs !== undefined) bareCpu.push(bare.cpuMs);
    }
    const weftCpu = bridgeCpu.map((ms, i) => ms + serviceCpu[i]);
    const median = (values: number[]) => summarize(values).median;
    ratioRow(
      "coldCall",
      metric,
      summarize(weftTimes),
      summarize(bareTimes),
      "bare stdio server",
      1.5,
      {
        ...cpuDetail(weftCpu, bareCpu),
        // Where the wall time goes: initialize answered, the service ready, the IDE's session opened there.
        spawnToInitializeMs: median(initializeTimes),
        spawnToServiceReadyMs: median(readyTimes),
        spawnToSessionOpenedMs: median(sessionTimes),
        ...(bridgeCpu.length ? { bridgeCpuMs: median(bridgeCpu), serviceCpuMs: median(serviceCpu) } : {}),
        ...(serviceStartCpu.length ? { serviceWholeStartCpuMs: median(serviceStartCpu) } : {}),
      },
    );
  } catch (error) {
    failedRow("coldCall", metric, "≤ 1.5×", reason(error));
  } finally {
    await removeTempDir(projectDir);
  }
}

/** The pid of a child of process `pid` that runs Deno (not git, say), from Linux's `/proc`, if it has one. */
function childOf(pid: number): number | undefined {
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      // The fields after the command's name (which may hold spaces and parentheses): state, then ppid.
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === pid && Deno.readLinkSync(`/proc/${entry.name}/exe`) === Deno.execPath()) {
        return Number(entry.name);
      }
    } catch {
      // a process that ended meanwhile
    }
  }
  return undefined;
}

/** Stops the service a cold spawn started (SIGTERM, as `weft stop` sends) and waits until it is gone. */
async function stopService(pid: number | undefined): Promise<void> {
  if (pid === undefined || !isProcessAlive(pid)) return;
  Deno.kill(pid, "SIGTERM");
  await withTimeout(
    (async () => {
      while (isProcessAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 10));
    })(),
    `the service (pid ${pid}) to stop`,
  ).catch(() => Deno.kill(pid, "SIGKILL"));
}
