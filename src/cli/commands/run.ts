/**
 * `weft run <runId>`: one Run with its timeline.
 *
 * @module
 */

import type { RunEventView, RunView, WorkflowView } from "../../engine/views.ts";
import { UsageError } from "../args.ts";
import { defineCommand } from "../command.ts";
import { hint, paint, printJson, relativeTime, table, truncate } from "../format.ts";
import { describeReasons, NO_CONTEXT, runContext } from "./run_context.ts";
import { withClient } from "./client.ts";
import { describeRun, exitCodeFor } from "./run_view.ts";

/** `weft run` */
export const runCommand = defineCommand({
  name: "run",
  summary: "show a Run with its timeline",
  synopsis: "run <runId>",
  description: `Shows a Run: where it stands, what it waits for, and its timeline (steps entered, questions
asked and answered with the source they came through, agent calls, commits, errors).`,
  json: 'print { "run": RunView, "timeline": RunEvent[] }',
  notes: "Exit codes: 0 the Run is running, waiting or completed; 5 it failed; 6 it was cancelled.",
  fixes: { NOT_FOUND: "check the Run id; `weft runs` lists the Runs" },
  async run({ positionals, projectDir, json }) {
    const [runId, ...extra] = positionals;
    if (!runId || extra.length) throw new UsageError("takes exactly one Run id (see `weft runs`)");
    const { result, current, context } = await withClient(projectDir, async (client) => {
      const result = await client.call<{ run: RunView; timeline?: RunEventView[] }>("get_run", {
        runId,
        timeline: true,
      });
      const context = json ? NO_CONTEXT : await runContext(client, result.run, result.timeline);
      if (json || result.run.status !== "waiting") return { result, context };
      const { workflows } = await client.call<{ workflows: WorkflowView[] }>("list_workflows");
      const current = workflows.find((w) => w.name === result.run.flowName && w.available);
      return { result, current, context };
    });
    if (json) printJson(result);
    else {
      console.log(describeRun(result.run, context));
      if (context.reasons.length) console.log(describeReasons(context.reasons));
      if (current?.version && result.run.version !== current.version) {
        console.log(hint(
          `it runs version ${
            result.run.version ?? "(none)"
          }; the workflow is now ${current.version}. To move it`,
          `weft move ${runId}`,
        ));
      }
      console.log(`\n${paint("bold", "Timeline")}`);
      console.log(timeline(result.timeline ?? []));
    }
    return exitCodeFor(result.run);
  },
});

/** The fields every event has, shown in their own columns rather than among the details. */
const COLUMNS = new Set(["seq", "at", "type", "stageName", "stepName"]);

function timeline(events: RunEventView[]): string {
  const now = new Date();
  return table(
    ["#", "WHEN", "EVENT", "AT", "DETAILS"],
    events.map((event) => [
      String(event.seq),
      relativeTime(event.at, now),
      event.type,
      event.stageName ? `${event.stageName}/${event.stepName ?? ""}` : "",
      truncate(details(event), 80),
    ]),
  );
}

function details(event: RunEventView): string {
  // A publication's outcome reads as a sentence: where it wrote, or why it left the file alone.
  if (event.type === "artifact_published") return `wrote ${event.path}`;
  if (event.type === "publish_skipped") return String(event.message);
  if (event.type === "publish_failed") {
    const error = event.error as { code?: string; message?: string };
    return `${error.code}: ${error.message}`;
  }
  return Object.entries(event).filter(([key]) => !COLUMNS.has(key))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`).join(" ");
}
