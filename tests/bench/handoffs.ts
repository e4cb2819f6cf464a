/**
 * Agent handoffs on the embedded `intent` workflow over `/mcp`: one at a time against the bare echo median,
 * and whole Runs driven by many clients at once.
 *
 * @module
 */

import type { Client } from "../support/sdk_test_client.ts";
import type { RunView } from "../../src/engine/views.ts";
import { handOff, PLAN, SPECIFICATION, type ToolCaller } from "../support/intent_agent.ts";
import { N } from "./config.ts";
import { call, connect } from "./clients.ts";
import { pairedWithEcho, round, summarize } from "./measure.ts";
import { failedRow, log, ratioRow, reason, rows } from "./report.ts";
import { closeClient } from "./resources.ts";
import type { Started } from "./servers.ts";
import type { Revision } from "../support/modern_client.ts";

/** Starts an `intent` Run on `client` and returns it waiting for its first agent call. */
async function startIntentRun(client: Client, intent: string): Promise<RunView> {
  const run = (await call<{ run: RunView }>(client, "flow", { flowName: "intent", intent })).run;
  if (run.pendingAgentCall?.phase !== "available") throw new Error(`no agent call to claim (${run.status})`);
  return run;
}

/** The four calls of a handoff, in order. */
/** One handoff against one `echo`: back to where it was in November (4.4×), with room for noise. */
const HANDOFF_AIM = 4.8;

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
  stage: "specification" | "plan",
  steps?: number[][],
): Promise<RunView> {
  let last = performance.now();
  let index = 0;
  const send: ToolCaller = async (name, args) => {
    const value = await call(client, name, args);
    const now = performance.now();
    steps?.[index++].push(now - last);
    last = now;
    return { ok: true, value };
  };
  const document = stage === "plan" ? PLAN : SPECIFICATION;
  const next = (await handOff(send, run, { stage, document, claimId }) as { run: RunView }).run;
  if (next.pendingAction?.kind !== "user_ask_confirmation") {
    throw new Error(`after completion the Run is ${next.status} without a confirmation`);
  }
  return next;
}

async function confirm(client: Client, run: RunView): Promise<RunView> {
  const args = { runId: run.runId, actionId: run.pendingAction!.id, answer: { isConfirmed: true } };
  return (await call<{ run: RunView }>(client, "answer_ask", args)).run;
}

/**
 * The handoff row: one agent handoff on an `intent` Run over `/mcp`, against bare echo calls, both in the
 * protocol revision `revision` (its row id and metric name it when it is not 2025-11-25).
 */
export async function benchHandoff(weftServer: Started, bare: Client, revision?: Revision): Promise<void> {
  const id = revision ? `agentHandoff_${revision}` : "agentHandoff";
  const metric = `agent handoff (claim, 2 tools, complete)${revision ? `, MCP ${revision}` : ""}`;
  log(
    `agent handoff: ${N.handoffs} handoffs on the intent workflow over /mcp${
      revision ? ` (${revision})` : ""
    }`,
  );
  let ide: Client | undefined;
  try {
    ide = await connect(weftServer, "/mcp", revision);
    const client = ide;
    const runs: RunView[] = [];
    for (let i = 0; i < N.handoffs + N.warmup; i++) {
      runs.push(await startIntentRun(client, `bench handoff ${i}`));
    }
    const steps: number[][] = HANDOFF_STEPS.map(() => []);
    const [times, echoes] = await pairedWithEcho(N.handoffs, N.warmup, 4, bare, async (i) => {
      await handoff(client, runs[i], `agent-${i}`, "specification", i >= N.warmup ? steps : undefined);
    });
    for (const run of runs) await call(client, "cancel_run", { runId: run.runId });
    const bySteps = Object.fromEntries(HANDOFF_STEPS.map((name, i) => [name, summarize(steps[i]).median]));
    ratioRow(
      id,
      metric,
      summarize(times),
      summarize(echoes),
      "bare echo, per call of 4 in a row",
      HANDOFF_AIM,
      {
        stepMedians: bySteps,
      },
    );
    log(`    per call (median ms): ${JSON.stringify(bySteps)}`);
  } catch (error) {
    failedRow(id, metric, `≤ ${HANDOFF_AIM}×`, reason(error));
  } finally {
    if (ide) await closeClient(ide);
  }
}

/** The concurrency row: whole `intent` Runs from many `/mcp` sessions at once, in Runs per second. */
export async function benchConcurrent(weftServer: Started): Promise<void> {
  const metric = `${N.concurrent} clients at once, ${N.runsEach} intent Run(s) each`;
  log(
    `concurrency: ${N.concurrent} clients on /mcp, ${N.runsEach} full intent Runs each (2 handoffs + 2 confirmations)`,
  );
  const errors: string[] = [];
  let completed = 0;
  let handoffs = 0;
  const runTimes: number[] = [];
  const drivers: Client[] = [];
  let person: Client | undefined;
  try {
    for (let c = 0; c < N.concurrent; c++) drivers.push(await connect(weftServer, "/mcp"));
    // The confirmations are the person's (the agent cannot give them): at the terminal's endpoint.
    person = await connect(weftServer, "/internal/mcp");
    const terminal = person;
    const started = performance.now();
    await Promise.all(drivers.map(async (client, c) => {
      for (let r = 0; r < N.runsEach; r++) {
        const runStarted = performance.now();
        try {
          let run = await startIntentRun(client, `bench concurrent ${c}.${r}`);
          run = await handoff(client, run, `agent-${c}`, "specification");
          handoffs++;
          run = await confirm(terminal, run);
          if (run.pendingAgentCall?.phase !== "available") throw new Error(`no plan call (${run.status})`);
          run = await handoff(client, run, `agent-${c}`, "plan");
          handoffs++;
          run = await confirm(terminal, run);
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
    await Promise.allSettled([...drivers, ...(person ? [person] : [])].map(closeClient));
  }
}
