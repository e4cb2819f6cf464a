/**
 * `weft retry <runId>`: a person resumes a Run whose agent call stopped (the service restarted, or the
 * model server did not answer), at the step where it stopped, with a new agent call, and on a terminal
 * follows it on as `weft flow` does.
 *
 * @module
 */

import type { RunView } from "../../engine/views.ts";
import { UsageError } from "../args.ts";
import { defineCommand } from "../command.ts";
import { follow, report } from "./attach.ts";
import { PROMPT_OPTIONS, promptsHere } from "../prompt.ts";
import { withClient } from "./client.ts";
import { NO_CONTEXT, runContext } from "./run_context.ts";
import { exitCodeFor } from "./run_view.ts";

/** `weft retry` */
export const retryCommand = defineCommand({
  name: "retry",
  summary: "resume a Run whose agent call stopped (restart, model server down)",
  synopsis: "retry <runId> [--no-interactive]",
  description: `Resumes a Run whose agent call stopped: the service restarted during it (RUN_INTERRUPTED) or
the model server did not answer (MODEL_UNAVAILABLE). The Run waits again at the same step with a new
agent call, taken by the same executor as before: the service's model, or the agent of the IDE that
started it. Nothing of the old attempt is replayed. weft never retries by itself; this is your decision.

On a terminal it then follows the Run like \`weft attach\`, asking you its questions and
confirmations; otherwise (or with --no-interactive / --json) it prints the Run and exits.`,
  options: PROMPT_OPTIONS,
  json: 'print { "run": RunView }; progress goes to stderr',
  notes: "Exit codes: 0 resumed (completed or waiting), 1 error, 5 the Run failed again, 6 it was cancelled.",
  fixes: {
    NOT_FOUND: "check the Run id; `weft runs --status failed` lists the failed Runs",
    CONFLICT: "only a Run that failed with RUN_INTERRUPTED or MODEL_UNAVAILABLE can be retried; " +
      "`weft run RUN` shows why this one ended",
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
