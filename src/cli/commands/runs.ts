/**
 * `weft runs`: the project's Runs, newest first, a page at a time.
 *
 * @module
 */

import { RUN_STATUSES, type RunStatus, type RunView } from "../../client/views.ts";
import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { hint, paint, printJson, relativeTime, statusTone, table, truncate } from "../terminal/format.ts";
import { withClient } from "../../client/weft_client.ts";
import { nextPageCommand, pagingOptions } from "../command_line/paging.ts";
import { say } from "../terminal/screen.ts";

/** `weft runs` */
export const runsCommand = defineCommand({
  name: "runs",
  summary: "list Runs, newest first",
  synopsis: "runs [--flow NAME] [--status S] [--limit N] [--cursor C]",
  description: "Lists Runs, newest first.",
  options: {
    flow: { type: "string", arg: "NAME", help: "only Runs of this workflow" },
    status: { type: "string", arg: "S", help: `only Runs with this status: ${RUN_STATUSES.join(", ")}` },
    ...pagingOptions("Runs"),
  },
  json: 'print { "runs": RunView[], "nextCursor"? }',
  async run({ options, positionals, projectDir, json, args }) {
    if (positionals.length) throw new UsageError("takes no arguments; filter with --flow and --status");
    const status = options.status;
    if (status !== undefined && !RUN_STATUSES.includes(status as RunStatus)) {
      throw new UsageError(`--status takes one of ${RUN_STATUSES.join(", ")}, not "${status}"`);
    }
    const query = {
      ...(options.flow !== undefined ? { flowName: options.flow } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
    };
    const page = await withClient(
      projectDir,
      (client) => client.call<{ runs: RunView[]; nextCursor?: string }>("list_runs", query),
    );
    if (json) {
      printJson(page);
      return EXIT.OK;
    }
    if (!page.runs.length) {
      if (status !== undefined || options.flow !== undefined || options.cursor !== undefined) {
        // Filters that match nothing say so: "no Runs yet" would be false when other Runs exist.
        const which = [options.cursor !== undefined ? "more" : "", status ?? ""].filter(Boolean).join(" ");
        say(
          `no ${which ? which + " " : ""}Runs${options.flow !== undefined ? ` of ${options.flow}` : ""}`,
        );
        return EXIT.OK;
      }
      say("no Runs yet");
      say(
        hint(
          "start one with",
          'weft flow <name> --intent "what you want done"',
          Deno.stdout,
          "(see `weft flows`)",
        ),
      );
      return EXIT.OK;
    }
    const now = new Date();
    say(table(
      ["RUN", "FLOW", "VERSION", "STATUS", "AT", "UPDATED", "INTENT"],
      page.runs.map((run) => [
        run.runId,
        run.flowName,
        run.version ?? "–",
        paint(statusTone(run.status), run.status),
        `${run.cursor.stageName}/${run.cursor.stepName}`,
        relativeTime(run.updatedAt, now),
        // A Run whose intent only names something (a deliver Run: its plan) reads as its title.
        truncate(run.title ?? run.intent, 48),
      ]),
    ));
    const waiting = page.runs.find((run) => run.status === "waiting" && run.pendingAction);
    if (waiting) say("\n" + hint("answer with", `weft attach ${waiting.runId}`));
    if (page.nextCursor) say(hint("next page", nextPageCommand("runs", args, page.nextCursor)));
    return EXIT.OK;
  },
});
