/**
 * `weft cancel <runId>`: ends an active Run as cancelled.
 *
 * @module
 */

import type { RunView } from "../../engine/views.ts";
import { UsageError } from "../args.ts";
import { defineCommand } from "../command.ts";
import { EXIT } from "../exit_codes.ts";
import { printJson } from "../format.ts";
import { withClient } from "./client.ts";
import { NO_CONTEXT, runContext } from "./run_context.ts";
import { describeRun } from "./run_view.ts";

/** `weft cancel` */
export const cancelCommand = defineCommand({
  name: "cancel",
  summary: "cancel an active Run",
  synopsis: "cancel <runId>",
  description: `Cancels an active Run: its pending question or agent call is withdrawn, and an agent still
working on it is refused from then on. What it already committed stays.`,
  json: 'print { "run": RunView }',
  notes: "Exit code 0 when the Run is cancelled (also when it already was).",
  fixes: {
    NOT_FOUND: "check the Run id; `weft runs` lists the Runs",
    CONFLICT: "the Run has already ended; `weft run RUN` shows how",
  },
  async run({ positionals, projectDir, json }) {
    const [runId, ...extra] = positionals;
    if (!runId || extra.length) {
      throw new UsageError("takes exactly one Run id (see `weft runs --status waiting`)");
    }
    const { run, context } = await withClient(projectDir, async (client) => {
      const { run } = await client.call<{ run: RunView }>("cancel_run", { runId });
      return { run, context: json ? NO_CONTEXT : await runContext(client, run) };
    });
    if (json) printJson({ run });
    else console.log(describeRun(run, context));
    return EXIT.OK;
  },
});
