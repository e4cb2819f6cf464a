/**
 * `weft retry <runId>`: a person resumes a Run whose agent call or command stopped (the service restarted,
 * the model server did not answer, the command could not start), at the step where it stopped, or runs the
 * command a Run waits on once they have trusted it; on a terminal it follows the Run on as `weft flow` does.
 *
 * @module
 */

import type { RunView } from "../../client/views.ts";
import { PROMPT_OPTIONS, UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { follow, report } from "../run_views/follow.ts";
import { promptsHere } from "../terminal/prompt.ts";
import { withClient } from "../../client/weft_client.ts";
import { NO_CONTEXT, runContext } from "../run_views/run_context.ts";
import { exitCodeFor } from "../run_views/run_view.ts";

/** `weft retry` */
export const retryCommand = defineCommand({
  name: "retry",
  summary: "resume a Run whose agent call or command stopped, or whose command you now trust",
  synopsis: "retry <runId> [--no-interactive]",
  description: `Resumes a Run whose agent call stopped: the service restarted during it (RUN_INTERRUPTED) or
the model server did not answer (MODEL_UNAVAILABLE). The Run waits again at the same step with a new
agent call, taken by the same executor as before: the service's model, or the agent of the IDE that
started it. Nothing of the old attempt is replayed. weft never retries by itself; this is your decision.

A command step is resumed the same way: after a restart during it (RUN_INTERRUPTED), or once what
kept it from starting is fixed (COMMAND_UNAVAILABLE), it runs again from the start. A Run waiting on
a command you had not trusted checks again after \`weft trust\`, and runs it if you now do.

On a terminal it then follows the Run like \`weft attach\`, asking you its questions and
confirmations; otherwise (or with --no-interactive / --json) it prints the Run and exits.`,
  options: PROMPT_OPTIONS,
  json: 'print { "run": RunView }; progress goes to stderr',
  notes: "Exit codes: 0 resumed (completed or waiting), 1 error, 5 the Run failed again, 6 it was cancelled.",
  fixes: {
    NOT_FOUND: "check the Run id; `weft runs --status failed` lists the failed Runs",
    CONFLICT: "only a Run that failed with RUN_INTERRUPTED, MODEL_UNAVAILABLE or COMMAND_UNAVAILABLE, or " +
      "waits on an untrusted command, can be retried; `weft run RUN` shows why this one ended",
  },
  async run({ options, positionals, projectDir, json }) {
    const [runId, ...extra] = positionals;
    if (!runId || extra.length) {
      throw new UsageError("takes exactly one Run id (see `weft runs --status failed`)");
    }
    const interactive = promptsHere(options, json);
    const { run, context } = await withClient(projectDir, async (client) => {
      const { run: resumed } = await client.call<{ run: RunView }>("retry_run", { runId });
      const run = interactive
        ? await follow(client, resumed, { interactive, progress: Deno.stdout })
        : resumed;
      return { run, context: json ? NO_CONTEXT : await runContext(client, run) };
    });
    report(run, json, context);
    return exitCodeFor(run);
  },
});
