/**
 * What `cancel`, `retry` and `move` share: one Run id in, one tool that changes that Run, and the Run printed
 * afterwards with what it waits for.
 *
 * @module
 */

import type { RunView } from "../../engine/views.ts";
import { UsageError } from "../args.ts";
import { EXIT } from "../exit_codes.ts";
import { printJson } from "../format.ts";
import { withClient } from "./client.ts";
import { NO_CONTEXT, runContext } from "./run_context.ts";
import { describeRun } from "./run_view.ts";

/** The tools that change one Run and answer `{ run }`. */
export type RunChangeTool = "cancel_run" | "retry_run" | "move_run";

/**
 * Calls `tool` on the one Run id in `positionals` and prints the Run (`{ run }` under `--json`);
 * `listHint` is the command that lists the Runs this command applies to.
 */
export async function changeRun(
  input: { positionals: string[]; projectDir: string; json: boolean },
  tool: RunChangeTool,
  listHint: string,
): Promise<number> {
  const [runId, ...extra] = input.positionals;
  if (!runId || extra.length) throw new UsageError(`takes exactly one Run id (see \`${listHint}\`)`);
  const { run, context } = await withClient(input.projectDir, async (client) => {
    const { run } = await client.call<{ run: RunView }>(tool, { runId });
    return { run, context: input.json ? NO_CONTEXT : await runContext(client, run) };
  });
  if (input.json) printJson({ run });
  else console.log(describeRun(run, context));
  return EXIT.OK;
}
