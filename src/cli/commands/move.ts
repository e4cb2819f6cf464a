/**
 * `weft move <runId>`: moves a waiting Run to the current version of its workflow.
 *
 * @module
 */

import { defineCommand } from "../command_line/command.ts";
import { changeRun } from "../run_views/run_change.ts";

/** `weft move` */
export const moveCommand = defineCommand({
  name: "move",
  summary: "move a waiting Run to the current version of its workflow",
  synopsis: "move <runId>",
  description: `Moves a waiting Run to the current version of its workflow. Without this, a Run always
finishes under the version it started with, whatever edits follow (see docs/workflows.md).

It moves only when its stage and step exist in the current version, its stage state matches the
new state schema, and what it waits for still fits there (the same questions, the same content to
confirm, the same agent, a call no agent has claimed yet). Otherwise nothing changes and the message
says exactly what does not fit. The move is recorded on the Run's timeline.`,
  json: 'print { "run": RunView }',
  notes: "Exit code 0 when the Run now runs the current version (also when it already did).",
  fixes: {
    NOT_FOUND: "check the Run id; `weft runs` lists the Runs",
    CONFLICT:
      "the Run goes on under its own version; answer it as it is, or cancel it with `weft cancel RUN`",
  },
  run: (input) =>
    changeRun(input, "move_run", "weft runs --status waiting", {
      outcome: (before, after) =>
        before.version === after.version
          ? `nothing moved: ${after.runId} already runs the current version of "${after.flowName}"`
          : `moved ${after.runId} to the current version of "${after.flowName}"`,
    }),
});
