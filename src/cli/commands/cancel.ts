/**
 * `weft cancel <runId>`: ends an active Run as cancelled.
 *
 * @module
 */

import { defineCommand } from "../command_line/command.ts";
import { changeRun } from "../run_views/run_change.ts";

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
  run: (input) => changeRun(input, "cancel_run", "weft runs --status waiting"),
});
