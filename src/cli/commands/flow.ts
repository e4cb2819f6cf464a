/**
 * `weft flow <name> --intent TEXT | --intent-file FILE|-`: starts a Run, starting the service when needed,
 * and follows it at the terminal when there is one.
 *
 * @module
 */

import type { RunView } from "../../engine/views.ts";
import { parseCommand, UsageError } from "../args.ts";
import { usage } from "../format.ts";
import { follow, report } from "./attach.ts";
import { withClient } from "./client.ts";
import { guarded } from "./failure.ts";
import { readSource } from "./input.ts";
import { exitCodeFor } from "./run_view.ts";

/** `weft flow` */
export const flowCommand = guarded("flow", async (args) => {
  const { common, values, positionals } = parseCommand(args, {
    intent: { type: "string" },
    "intent-file": { type: "string" },
    "no-interactive": { type: "boolean", default: false },
  });
  if (common.help) return usage(SYNOPSIS, HELP);
  const [flowName, ...extra] = positionals;
  if (!flowName || extra.length) throw new UsageError("takes exactly one workflow name (see `weft flows`)");
  if ((values.intent === undefined) === (values["intent-file"] === undefined)) {
    throw new UsageError("pass the intent as --intent TEXT or --intent-file FILE|- (exactly one)");
  }
  const intent = values.intent as string | undefined ??
    (await readSource(values["intent-file"] as string, "--intent-file")).trim();
  if (!intent.trim()) throw new UsageError("the intent is blank; say what you want done");
  const interactive = !common.json && !values["no-interactive"] && Deno.stdin.isTerminal();
  const progress = common.json ? Deno.stderr : Deno.stdout;
  const say = (line: string) => progress.writeSync(new TextEncoder().encode(line + "\n"));
  const run = await withClient(common.projectDir, async (client) => {
    const { run } = await client.call<{ run: RunView }>("flow", { flowName, intent });
    say(`started ${run.runId} (${run.flowName})`);
    return interactive ? await follow(client, run, { interactive, progress }) : run;
  }, { start: true, progress: say });
  report(run, common.json);
  return exitCodeFor(run);
}, {
  NOT_FOUND: "`weft flows` lists the workflows of this project",
  CONFIGURATION_REQUIRED:
    "`weft flows` says which workflows can run from the terminal; start this one from " +
    "your IDE's agent (see `weft config <ide>`)",
});

const SYNOPSIS = "flow <name> (--intent TEXT | --intent-file FILE|-) [--no-interactive] [--json]";
const HELP = `Starts a Run of the workflow <name> for your intent, starting the service when none runs.
On a terminal it then follows the Run like \`weft attach\`, asking you its questions and
confirmations; otherwise (or with --no-interactive / --json) it prints the Run and exits.

Starting a Run is not idempotent: when unsure whether it started, look with \`weft runs\`
instead of running \`weft flow\` again.

  --intent TEXT         what you want done
  --intent-file FILE|-  read the intent from a file, or from stdin with -
  --json                print { "run": RunView } on stdout; progress goes to stderr

Exit codes: 0 started (completed or waiting), 1 error, 2 usage, 5 the Run failed, 6 it was cancelled.`;
