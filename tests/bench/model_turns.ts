/**
 * weft's own time per model turn: Runs of a one-step workflow driven by the service's model against a
 * scripted OpenAI-compatible server in this process, which answers at once and notes when each answer was
 * ready to leave and when the next request of the same agent call reached it. The gap between the two is
 * weft's time for the turn (reading the answer, running and recording the tool call, committing the turn,
 * building and sending the next request, both loopback transfers); the server's own time (reading the
 * request, building the answer) is not in it. The Run is watched only once its last request has arrived, so
 * the watching client's calls do not land inside the measured gaps.
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
import { closeClient, removeTempDir, tempDir, withTimeout } from "./resources.ts";
import { startChild } from "./servers.ts";

/** The aim: under 2 ms of weft's own time per model turn. */
const AIM_MS = 2;

/** Measures the model-turn row. */
export async function benchModelTurns(): Promise<void> {
  const times: { arrived: number; answered: number; turn: number }[] = [];
  const model = scriptedServer("openai", (request) => {
    const entry = { arrived: request.receivedAt, answered: 0, turn: turnOf(request) };
    times.push(entry);
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
  const weft = await startChild("weft", projectDir, true);
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
    };
    log(`model turns: ${N.warmup} unmeasured and ${N.runs} measured probe Runs of three turns each`);
    for (let i = 0; i < N.warmup; i++) await runOnce();
    const from = times.length;
    for (let i = 0; i < N.runs; i++) await runOnce();
    const gaps: number[] = [];
    for (let i = from + 1; i < times.length; i++) {
      if (times[i].turn > 0) gaps.push(times[i].arrived - times[i - 1].answered);
    }
    await closeClient(client);
    const sample = summarize(gaps);
    rows.push({
      key: "modelTurn",
      metric: "weft's own time per model turn (scripted server time excluded)",
      unit: "ms",
      weft: sample.median,
      baseline: null,
      baselineLabel: "—",
      ratio: null,
      aim: `< ${AIM_MS} ms`,
      met: sample.median < AIM_MS,
      detail: { weft: sample },
    });
    log(`  model turn: median ${round(sample.median, 2)} ms over ${gaps.length} turns`);
  } catch (error) {
    failedRow("modelTurn", "weft's own time per model turn", `< ${AIM_MS} ms`, String(error));
  } finally {
    await weft.stop();
    await model.close();
    await removeTempDir(projectDir);
  }
}
