/**
 * What `cancel`, `retry` and `move` share: one Run id in, one tool that changes that Run, and the Run printed
 * afterwards with what it waits for.
 *
 * @module
 */

import type { RunView } from "../../client/views.ts";
import { UsageError } from "../command_line/args.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { printJson } from "../terminal/format.ts";
import { type WeftClient, withClient } from "../../client/weft_client.ts";
import { NO_CONTEXT, runContext } from "./run_context.ts";
import { describeRun } from "./run_view.ts";
import { say } from "../terminal/screen.ts";

/** The tools that change one Run and answer `{ run }`. */
export type RunChangeTool = "cancel_run" | "retry_run" | "move_run";

/** What a command adds to the change itself. */
export interface RunChangeOptions {
  /** A line saying what the change did, from the Run before and after (read first only when given). */
  outcome?: (before: RunView, after: RunView) => string;
}

/**
 * Calls `tool` on the one Run id in `positionals` and prints the Run (`{ run }` under `--json`);
 * `listHint` is the command that lists the Runs this command applies to.
 */
export async function changeRun(
  input: { positionals: string[]; projectDir: string; json: boolean },
  tool: RunChangeTool,
  listHint: string,
  options: RunChangeOptions = {},
): Promise<number> {
  const [runId, ...extra] = input.positionals;
  if (!runId || extra.length) throw new UsageError(`takes exactly one Run id (see \`${listHint}\`)`);
  const { run, context, outcome } = await withClient(input.projectDir, async (client) => {
    const before = options.outcome ? await getRun(client, runId) : undefined;
    const { run } = await client.call<{ run: RunView }>(tool, { runId });
    const outcome = before && options.outcome?.(before, run);
    return { run, context: input.json ? NO_CONTEXT : await runContext(client, run), outcome };
  });
  if (input.json) printJson({ run });
  else say((outcome ? outcome + "\n" : "") + describeRun(run, context));
  return EXIT.OK;
}

async function getRun(client: WeftClient, runId: string): Promise<RunView> {
  return (await client.call<{ run: RunView }>("get_run", { runId })).run;
}
