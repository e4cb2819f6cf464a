/**
 * `weft tasks [RUN]`: the tasks of a Run that works through a list (a `deliver` Run's plan), where each
 * stands, how many attempts it took and how its last verify ended.
 *
 * @module
 */

import { runTasks, type RunView } from "../../client/views.ts";
import { notFound } from "../../errors.ts";
import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { hint, paint, printJson, statusTone } from "../terminal/format.ts";
import { withClient } from "../../client/weft_client.ts";
import { countsLine, taskTable } from "../run_views/task_table.ts";
import { say } from "../terminal/screen.ts";

/** The workflow whose newest Run `weft tasks` shows when no Run is named. */
const DELIVER = "deliver";

/** `weft tasks` */
export const tasksCommand = defineCommand({
  name: "tasks",
  summary: "show a Run's tasks: status, attempts, last verify",
  synopsis: "tasks [RUN]",
  description: `Shows the tasks of Run RUN (the items of the list it works through), or of the newest
deliver Run when RUN is omitted: each task's id and title, its status (pending, running, done,
failed, skipped, blocked), how many attempts it took, and how its last verify command ended, with
the last line of its output.`,
  json:
    'print { "runId", "flowName", "status", "list": ListView | null }, as weft://runs/{runId}/tasks reads',
  fixes: {
    NOT_FOUND: 'name a Run (`weft runs` lists them), or deliver a plan: `weft flow deliver --intent "RUN"`',
  },
  async run({ positionals, projectDir, json }) {
    if (positionals.length > 1) throw new UsageError("takes at most one Run id (see `weft runs`)");
    const [named] = positionals;
    const run = await withClient(projectDir, async (client) => {
      if (named !== undefined) return (await client.call<{ run: RunView }>("get_run", { runId: named })).run;
      const page = await client.call<{ runs: RunView[] }>("list_runs", { flowName: DELIVER, limit: 1 });
      if (!page.runs.length) throw notFound(`there is no ${DELIVER} Run yet, and no Run was named`);
      return page.runs[0];
    });
    const tasks = runTasks(run);
    if (json) {
      printJson(tasks);
      return EXIT.OK;
    }
    say(
      `${paint("bold", run.runId)}  ${run.flowName}  ${paint(statusTone(run.status), run.status)}`,
    );
    if (!tasks.list) {
      say("no tasks: the Run has not entered a list stage");
      return EXIT.OK;
    }
    say(countsLine(tasks.list));
    say("");
    say(taskTable(tasks.list));
    if (run.pendingAction) {
      say("\n" + hint("it waits for you; answer with", `weft attach ${run.runId}`));
    }
    return EXIT.OK;
  },
});
