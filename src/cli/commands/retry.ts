/**
 * `weft retry <runId>`: a person resumes a Run whose agent call stopped (the service restarted, or the
 * model server did not answer), at the step where it stopped, with a new agent call.
 *
 * @module
 */

import { defineCommand } from "../command.ts";
import { changeRun } from "./run_change.ts";

/** `weft retry` */
export const retryCommand = defineCommand({
  name: "retry",
  summary: "resume a Run whose agent call stopped (restart, model server down)",
  synopsis: "retry <runId>",
  description: `Resumes a Run whose agent call stopped: the service restarted during it (RUN_INTERRUPTED) or
the model server did not answer (MODEL_UNAVAILABLE). The Run waits again at the same step with a new
agent call, taken by the same executor as before: the service's model, or the agent of the IDE that
started it. Nothing of the old attempt is replayed. weft never retries by itself; this is your decision.`,
  json: 'print { "run": RunView }',
  fixes: {
    NOT_FOUND: "check the Run id; `weft runs --status failed` lists the failed Runs",
    CONFLICT: "only a Run that failed with RUN_INTERRUPTED or MODEL_UNAVAILABLE can be retried; " +
      "`weft run RUN` shows why this one ended",
  },
  run: (input) => changeRun(input, "retry_run", "weft runs --status failed"),
});
