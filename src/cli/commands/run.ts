/**
 * `weft run <runId>`: one Run with its timeline.
 *
 * @module
 */

import type { RunEventView, RunView, WorkflowView } from "../../client/views.ts";
import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import {
  hint,
  outputWidth,
  paint,
  printJson,
  relativeTime,
  table,
  tableLayout,
  truncate,
  visibleWidth,
} from "../terminal/format.ts";
import { describeReasons, NO_CONTEXT, runContext } from "../run_views/run_context.ts";
import { withClient } from "../../client/weft_client.ts";
import { describeRun, exitCodeFor } from "../run_views/run_view.ts";
import { answeredLine } from "../../client/answer_channel.ts";
import { visibleLine } from "../../lib/visible_text.ts";
import { describeCommandEvent } from "../run_views/model_progress.ts";
import { say } from "../terminal/screen.ts";

/** `weft run` */
export const runCommand = defineCommand({
  name: "run",
  summary: "show a Run with its timeline",
  synopsis: "run <runId>",
  description: `Shows a Run: where it stands, what it waits for, and its timeline (steps entered, questions
asked and answered with the source they came through, agent calls, commands, commits, errors), then
how its last command ended, with the last lines of its output.`,
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
      say(describeRun(result.run, context));
      if (context.reasons.length) say(describeReasons(context.reasons));
      if (current?.version && result.run.version !== current.version) {
        say(hint(
          `it runs version ${
            result.run.version ?? "(none)"
          }; the workflow is now ${current.version}. To move it`,
          `weft move ${runId}`,
        ));
      }
      say(`\n${paint("bold", "Timeline")}`);
      say(timeline(result.timeline ?? []));
      const lastCommand = (result.timeline ?? []).findLast((event) => event.type === "command_ended");
      if (lastCommand) {
        const step = `${lastCommand.stageName}/${lastCommand.stepName}`;
        say(
          `\n${paint("bold", "Last command")}\n${describeCommandEvent(lastCommand, step, Deno.stdout)}`,
        );
      }
    }
    return exitCodeFor(result.run);
  },
});

/** The fields every event has, shown in their own columns rather than among the details. */
const COLUMNS = new Set(["seq", "at", "type", "stageName", "stepName"]);

/** The narrowest the details may get: a narrower terminal wraps lines rather than hide them. */
const MIN_DETAILS = 40;

function timeline(events: RunEventView[]): string {
  const now = new Date();
  const rows = events.map((event) => [
    String(event.seq),
    relativeTime(event.at, now),
    event.type,
    event.stageName ? `${event.stageName}/${event.stepName ?? ""}` : "",
  ]);
  const header = ["#", "WHEN", "EVENT", "AT", "DETAILS"];
  // The details take what the terminal leaves them, one line per field where they do not fit on one.
  const { lastColumn } = tableLayout(header, rows.map((row) => [...row, ""]));
  const width = Math.max(MIN_DETAILS, outputWidth() - lastColumn);
  return table(header, rows.map((row, i) => [...row, wrapFields(fields(events[i], width), width)]));
}

/** The event's own fields as `key=value`: an id whole (a person pastes it), any other value cut to `width`. */
function fields(event: RunEventView, width: number): string[] {
  // A publication's outcome reads as a sentence (where it wrote, or why it left the file), wrapped by word.
  const sentence = publicationSentence(event);
  if (sentence !== undefined) return sentence.split(" ");
  // An answer says first how it came ("Confirmed in Studio"); its channel fields then go without saying.
  const answered = event.type === "action_answered" ? visibleLine(answeredLine(event)).split(" ") : [];
  const shown = Object.entries(event).filter(([key]) =>
    !COLUMNS.has(key) && !(answered.length && ANSWER_WAYS.has(key))
  );
  return answered.concat(shown.map(([key, value]) => {
    const text = `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`;
    return typeof value === "string" && /Id$/.test(key) ? text : truncate(text, width);
  }));
}

/** The fields of an answer that its first words already say. */
const ANSWER_WAYS = new Set(["channel", "source", "by"]);

/** Fields joined by spaces, a new line wherever the next would pass `width`. */
function wrapFields(fields: string[], width: number): string {
  const lines: string[] = [];
  for (const field of fields) {
    const last = lines.length - 1;
    if (last >= 0 && visibleWidth(lines[last]) + 1 + visibleWidth(field) <= width) lines[last] += " " + field;
    else lines.push(field);
  }
  return lines.join("\n");
}

/** What a publication event (or the start of a revision) says, in words; undefined for other events. */
function publicationSentence(event: RunEventView): string | undefined {
  if (event.type === "artifact_published") return `wrote ${event.path}`;
  if (event.type === "revision_started") {
    return `a revision of ${event.artifactId} (revision ${event.fromRevision}) from the edited ${event.path}`;
  }
  if (event.type === "publish_skipped") return String(event.message);
  if (event.type === "publish_failed") {
    const error = event.error as { code?: string; message?: string };
    return `${error.code}: ${error.message}`;
  }
  return undefined;
}
