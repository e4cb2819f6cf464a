/**
 * A Run of a human-only fixture workflow (ask → check → confirm → commit) end to end over `/internal/mcp`,
 * against the bare echo median measured in the same moments.
 *
 * @module
 */

import type { Client } from "../support/sdk_test_client.ts";
import type { RunView } from "../../src/engine/views.ts";
import { humanFlow, REVIEW_ANSWER, workflowFiles } from "../support/workflows.ts";
import { N } from "./config.ts";
import { call, connect } from "./clients.ts";
import { pairedWithEcho, summarize } from "./measure.ts";
import { failedRow, log, ratioRow, reason } from "./report.ts";
import { closeClient } from "./resources.ts";
import type { Started } from "./servers.ts";

/** The name of the fixture workflow. */
export const FIXTURE_FLOW = "bench-review";

/** The fixture workflow: the review questions, checked, confirmed and committed. */
export const FIXTURE_MANIFEST = humanFlow({
  name: FIXTURE_FLOW,
  title: "Bench review",
  description: "Asks for a title and a colour, checks them, confirms them and commits them.",
});

/** Files of a temp project that holds the fixture workflow. */
export function fixtureFiles(): Record<string, string> {
  return workflowFiles(FIXTURE_MANIFEST);
}

/** The fixture Run row: a whole Run of the fixture workflow over `/internal/mcp`, against bare echo calls. */
export async function benchFixtureRun(weftServer: Started, bare: Client): Promise<void> {
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
        answer: REVIEW_ANSWER,
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
    const [times, echoes] = await pairedWithEcho(N.runs, N.warmup, 3, bare, oneRun);
    ratioRow(
      "fixtureRun",
      "fixture Run end to end (3 calls)",
      summarize(times),
      summarize(echoes),
      "bare echo, per call of 3 in a row",
      null,
    );
  } catch (error) {
    failedRow("fixtureRun", "fixture Run end to end (3 calls)", "—", reason(error));
  } finally {
    await closeClient(cli);
  }
}
