/**
 * `weft flows`: the workflows this project offers, whether each can run from the terminal, and why not.
 *
 * @module
 */

import type { WorkflowView } from "../../client/views.ts";
import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { hint, indent, paint, printJson, table } from "../terminal/format.ts";
import { withClient } from "../../client/weft_client.ts";
import { say } from "../terminal/screen.ts";

/** `weft flows` */
export const flowsCommand = defineCommand({
  name: "flows",
  summary: "list the workflows, and why one cannot run",
  synopsis: "flows",
  description: `Lists the workflows of this project: the embedded ones and those in workflows/<name>/.
STATE says whether a workflow loaded and can run from the terminal (its agent steps done by the
service's model, or by your IDE's agent when no model is configured); when not, the reason follows
the table (for a broken workflow: the file and JSON pointer of each problem). VERSION is the digest
of the current definition; OLDER RUNS counts the active Runs that still run an earlier version
(each finishes on its own version; \`weft move RUN\` moves a waiting one to the current).`,
  json: 'print { "workflows": WorkflowView[] }',
  async run({ positionals, projectDir, json }) {
    if (positionals.length) throw new UsageError("takes no arguments");
    const { workflows } = await withClient(
      projectDir,
      (client) => client.call<{ workflows: WorkflowView[] }>("list_workflows"),
    );
    if (json) {
      printJson({ workflows });
      return 0;
    }
    const rows = workflows.map((w) => [
      paint("bold", w.name),
      w.ready
        ? paint("green", "ready")
        : w.available
        ? paint("yellow", "not ready")
        : paint("red", "unavailable"),
      w.source,
      w.version ?? "–",
      w.olderActiveRuns ? paint("yellow", String(w.olderActiveRuns)) : "0",
      w.stages.join(" → ") || "–",
      w.title,
    ]);
    say(table(["NAME", "STATE", "SOURCE", "VERSION", "OLDER RUNS", "STAGES", "TITLE"], rows));
    for (const w of workflows.filter((w) => w.reason)) {
      say(
        `\n${paint(w.available ? "yellow" : "red", w.name)}: ${w.available ? "not ready" : "unavailable"}`,
      );
      say(indent(w.reason!));
    }
    if (workflows.some((w) => w.ready && w.agentExecutor === "mcp_client")) {
      say(
        "\nNo model of weft's is configured: your IDE's agent does the agent steps of Runs started here " +
          "(the Run says what to tell it).",
      );
    }
    const ready = workflows.find((w) => w.ready);
    if (ready) {
      say("\n" + hint("start a Run with", `weft flow ${ready.name} --intent "what you want done"`));
    }
    if (workflows.some((w) => w.olderActiveRuns)) {
      say(hint("Runs on an older version finish on it; to move one", "weft move RUN"));
    }
    if (workflows.some((w) => !w.available)) {
      say(
        hint("after fixing a workflow", "weft flows", Deno.stdout, "(edits apply without a restart)"),
      );
    }
    return 0;
  },
});
