/**
 * `weft runs`: the project's Runs, newest first, a page at a time.
 *
 * @module
 */

import { RUN_STATUSES, type RunStatus, type RunView } from "../../engine/views.ts";
import { parseCommand, UsageError } from "../args.ts";
import { hint, paint, printJson, relativeTime, statusTone, table, truncate, usage } from "../format.ts";
import { withClient } from "./client.ts";
import { guarded } from "./failure.ts";
import { nextPageCommand, parseLimit } from "./paging.ts";

/** `weft runs` */
export const runsCommand = guarded("runs", async (args) => {
  const { common, values, positionals } = parseCommand(args, {
    flow: { type: "string" },
    status: { type: "string" },
    limit: { type: "string" },
    cursor: { type: "string" },
  });
  if (common.help) return usage("runs [--flow NAME] [--status S] [--limit N] [--cursor C] [--json]", HELP);
  if (positionals.length) throw new UsageError("takes no arguments; filter with --flow and --status");
  const status = values.status as string | undefined;
  if (status !== undefined && !RUN_STATUSES.includes(status as RunStatus)) {
    throw new UsageError(`--status takes one of ${RUN_STATUSES.join(", ")}`);
  }
  const query = {
    ...(values.flow !== undefined ? { flowName: values.flow } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(values.limit !== undefined ? { limit: parseLimit(values.limit as string) } : {}),
    ...(values.cursor !== undefined ? { cursor: values.cursor } : {}),
  };
  const page = await withClient(
    common.projectDir,
    (client) => client.call<{ runs: RunView[]; nextCursor?: string }>("list_runs", query),
  );
  if (common.json) {
    printJson(page);
    return 0;
  }
  if (!page.runs.length) {
    console.log("no Runs yet");
    console.log(hint("start one with", 'weft flow <name> --intent "what you want done"  (see `weft flows`)'));
    return 0;
  }
  const now = new Date();
  console.log(table(
    ["RUN", "FLOW", "STATUS", "AT", "UPDATED", "INTENT"],
    page.runs.map((run) => [
      run.runId,
      run.flowName,
      paint(statusTone(run.status), run.status),
      `${run.cursor.stageName}/${run.cursor.stepName}`,
      relativeTime(run.updatedAt, now),
      truncate(run.intent, 48),
    ]),
  ));
  const waiting = page.runs.find((run) => run.status === "waiting" && run.pendingAction);
  if (waiting) console.log("\n" + hint("answer with", `weft attach ${waiting.runId}`));
  if (page.nextCursor) console.log(hint("next page", nextPageCommand("runs", args, page.nextCursor)));
  return 0;
});

const HELP = `Lists Runs, newest first.

  --flow NAME    only Runs of this workflow
  --status S     only Runs with this status: ${RUN_STATUSES.join(", ")}
  --limit N      at most N Runs (1–200, default 50)
  --cursor C     the next page: the cursor printed by the previous page, with the same filters
  --json         print { "runs": RunView[], "nextCursor"? }`;
