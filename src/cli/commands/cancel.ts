/**
 * `weft cancel <runId>`: ends an active Run as cancelled.
 *
 * @module
 */

import type { RunView } from "../../engine/views.ts";
import { parseCommand, UsageError } from "../args.ts";
import { printJson, usage } from "../format.ts";
import { withClient } from "./client.ts";
import { guarded } from "./failure.ts";
import { describeRun } from "./run_view.ts";

/** `weft cancel` */
export const cancelCommand = guarded("cancel", async (args) => {
  const { common, positionals } = parseCommand(args);
  if (common.help) return usage("cancel <runId> [--json]", HELP);
  const [runId, ...extra] = positionals;
  if (!runId || extra.length) {
    throw new UsageError("takes exactly one Run id (see `weft runs --status waiting`)");
  }
  const { run } = await withClient(
    common.projectDir,
    (client) => client.call<{ run: RunView }>("cancel_run", { runId }),
  );
  if (common.json) printJson({ run });
  else console.log(describeRun(run));
  return 0;
}, {
  NOT_FOUND: "check the Run id; `weft runs` lists the Runs",
  CONFLICT: "the Run has already ended; `weft run RUN` shows how",
});

const HELP = `Cancels an active Run: its pending question or agent call is withdrawn, and an agent still
working on it is refused from then on. What it already committed stays.

  --json  print { "run": RunView }

Exit code 0 when the Run is cancelled (also when it already was).`;
