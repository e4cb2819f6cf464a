/**
 * weft's own time per model turn: Runs of a one-step workflow driven by the service's model against a
 * scripted OpenAI-compatible server in this process, which answers at once and notes when each answer was
 * ready to leave and when the next request of the same agent call reached it. The gap between the two is
 * weft's time for the turn (reading the answer, running and recording the tool call, committing the turn,
 * building and sending the next request, both loopback transfers); the server's own time (reading the
 * request, building the answer) is not in it. The Run is watched only once its last request has arrived, so
 * the watching client's calls do not land inside the measured gaps. The baseline is the same gap for
 * `tests/bench/bare_model_client.ts` (the least an agent loop over HTTP does per turn: parse the answer,
 * send the conversation back), one agent call of it after each probe Run, against the same server.
 *
 * @module
 */

import type { RunView } from "../../src/engine/views.ts";
import { replyResponse, scriptedServer, turnOf } from "../model/scripted_server.ts";
import { probeFiles, probeTurn } from "../model/support.ts";
import { N } from "./config.ts";
import { call, connect } from "./clients.ts";
import { round, summarize } from "./measure.ts";
import { failedRow, log, rows } from "./report.ts";
import { children, closeClient, removeTempDir, tempDir, withTimeout } from "./resources.ts";
import { startChild } from "./servers.ts";
import { trustProject } from "../support/service.ts";

/** The aim: under 2 ms of weft's own time per model turn. */
const AIM_MS = 2;

const BARE_CLIENT = new URL("./bare_model_client.ts", import.meta.url).pathname;

/** One request as the scripted server saw it: when it arrived, when its answer was ready, whose it was. */
interface Timing {
  arrived: number;
  answered: number;
  turn: number;
}

/** Measures the model-turn row. */
export async function benchModelTurns(): Promise<void> {
  const times: Record<"weft" | "bare", Timing[]> = { weft: [], bare: [] };
  const model = scriptedServer("openai", (request) => {
    const entry = { arrived: request.receivedAt, answered: 0, turn: turnOf(request) };
    times[request.path === "/bare" ? "bare" : "weft"].push(entry);
    const response = replyResponse("openai", probeTurn(entry.turn));
    entry.answered = performance.now();
    return { response: () => response };
  });
  const projectDir = await tempDir({
    "weft.json": JSON.stringify({
      models: { default: { provider: "openai-compatible", model: "bench", baseURL: `${model.url}/v1` } },
    }),
    ...probeFiles(),
  });
  // The bench's own user config folder, where the project's weft.json is trusted.
  const configHome = await Deno.makeTempDir({ prefix: "weft-bench-user-" });
  await trustProject(projectDir, configHome);
  const weft = await startChild("weft", projectDir, true, undefined, [], {
    env: { XDG_CONFIG_HOME: configHome },
  });
  const bare = bareClient(`${model.url}/bare`);
  try {
    const client = await connect(weft, "/internal/mcp");
    const runOnce = async () => {
      const requests = model.requests.length + 3;
      const { run } = await call<{ run: RunView }>(client, "flow", { flowName: "probe", intent: "bench" });
      await withTimeout(
        (async () => {
          await model.received(requests);
          while (true) {
            const now = (await call<{ run: RunView }>(client, "get_run", { runId: run.runId })).run;
            if (now.status === "completed") return;
            if (now.status !== "waiting") throw new Error(`probe Run ended ${now.status}`);
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
        })(),
        "a probe Run",
      );
      await withTimeout(bare.call(), "the bare model client");
    };
    log(`model turns: ${N.warmup} unmeasured and ${N.runs} measured probe Runs of three turns each`);
    for (let i = 0; i < N.warmup; i++) await runOnce();
    const from = { weft: times.weft.length, bare: times.bare.length };
    for (let i = 0; i < N.runs; i++) await runOnce();
    await closeClient(client);
    const weftGaps = summarize(gaps(times.weft, from.weft));
    const bareGaps = summarize(gaps(times.bare, from.bare));
    rows.push({
      key: "modelTurn",
      metric: "weft's own time per model turn (scripted server time excluded)",
      unit: "ms",
      weft: weftGaps.median,
      baseline: bareGaps.median,
      baselineLabel: "bare HTTP agent loop",
      ratio: round(weftGaps.median / bareGaps.median, 2),
      aim: `< ${AIM_MS} ms`,
      met: weftGaps.median < AIM_MS,
      detail: { weft: weftGaps, baseline: bareGaps },
    });
    log(
      `  model turn: median ${round(weftGaps.median, 2)} ms vs ${round(bareGaps.median, 2)} ms for a bare ` +
        `HTTP agent loop, over ${weftGaps.n} turns each`,
    );
  } catch (error) {
    failedRow("modelTurn", "weft's own time per model turn", `< ${AIM_MS} ms`, String(error));
  } finally {
    await bare.stop();
    await weft.stop();
    await model.close();
    await removeTempDir(projectDir);
    await removeTempDir(configHome);
  }
}

/** From answer to next request, for every request after `from` that is not an agent call's first. */
function gaps(timings: Timing[], from: number): number[] {
  const found: number[] = [];
  for (let i = Math.max(from, 1); i < timings.length; i++) {
    if (timings[i].turn > 0) found.push(timings[i].arrived - timings[i - 1].answered);
  }
  return found;
}

/** The bare client as a child process: each `call()` makes it do one agent call of three requests. */
function bareClient(url: string): { call: () => Promise<void>; stop: () => Promise<void> } {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", BARE_CLIENT, url],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  children.add(child);
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  return {
    async call() {
      await writer.write(new TextEncoder().encode("go\n"));
      while (!buffered.includes("\n")) {
        const { done, value } = await reader.read();
        if (done) throw new Error("the bare model client ended");
        buffered += value;
      }
      buffered = buffered.slice(buffered.indexOf("\n") + 1);
    },
    async stop() {
      await writer.close().catch(() => {});
      await reader.cancel().catch(() => {});
      await child.status;
      children.delete(child);
    },
  };
}
