/**
 * `weft flow <name> --intent TEXT | --intent-file FILE|-`: starts a Run, starting the service when needed,
 * and follows it at the terminal when there is one.
 *
 * @module
 */

import type { RunView, WorkflowView } from "../../client/views.ts";
import { WeftError } from "../../errors.ts";
import { PROMPT_OPTIONS, UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { CommandFailure } from "../command_line/failure.ts";
import { nearest } from "../command_line/suggest.ts";
import { follow, report } from "../run_views/follow.ts";
import { promptsHere } from "../terminal/prompt.ts";
import { type WeftClient, withClient } from "../../client/weft_client.ts";
import { blameBrokenWorkflow, NO_CONTEXT, runContext } from "../run_views/run_context.ts";
import { readSource } from "../command_line/input.ts";
import { exitCodeFor } from "../run_views/run_view.ts";
import { say } from "../terminal/screen.ts";

/** `weft flow` */
export const flowCommand = defineCommand({
  name: "flow",
  summary: "start a Run of a workflow for your intent (starts the service if needed)",
  synopsis: "flow <name> (--intent TEXT | --intent-file FILE|-) [--no-interactive]",
  description: `Starts a Run of the workflow <name> for your intent, starting the service when none runs.
On a terminal it then follows the Run like \`weft attach\`, asking you its questions and
confirmations; otherwise (or with --no-interactive / --json) it prints the Run and exits.

Starting a Run is not idempotent: when unsure whether it started, look with \`weft runs\`
instead of running \`weft flow\` again.`,
  options: {
    intent: { type: "string", arg: "TEXT", help: "what you want done" },
    "intent-file": {
      type: "string",
      arg: "FILE|-",
      help: "read the intent from a file, or from stdin with -",
    },
    ...PROMPT_OPTIONS,
  },
  json: 'print { "run": RunView }; progress goes to stderr',
  notes:
    "Exit codes: 0 started (completed or waiting), 1 error, 2 usage, 5 the Run failed, 6 it was cancelled.",
  fixes: {
    NOT_FOUND: "`weft flows` lists the workflows of this project",
    CONFIGURATION_REQUIRED:
      "`weft flows` says which workflows can run from the terminal; start this one from " +
      "your IDE's agent (see `weft config <ide>`)",
  },
  async run({ options, positionals, projectDir, json }) {
    const [flowName, ...extra] = positionals;
    if (!flowName || extra.length) throw new UsageError("takes exactly one workflow name (see `weft flows`)");
    if ((options.intent === undefined) === (options["intent-file"] === undefined)) {
      throw new UsageError("pass the intent as --intent TEXT or --intent-file FILE|- (exactly one)");
    }
    const intent = options.intent ?? (await readSource(options["intent-file"]!, "--intent-file")).trim();
    if (!intent.trim()) throw new UsageError("the intent is blank; say what you want done");
    const interactive = promptsHere(options, json);
    const progress = json ? Deno.stderr : Deno.stdout;
    const note = (line: string) => say(line, progress);
    const { run, context } = await withClient(projectDir, async (client) => {
      const { run: started } = await client.call<{ run: RunView }>("flow", { flowName, intent })
        .catch(async (error) => {
          throw await suggestWorkflow(client, flowName, await blameBrokenWorkflow(client, flowName, error));
        });
      note(`started ${started.runId} (${started.flowName})`);
      const run = interactive ? await follow(client, started, { interactive, progress }) : started;
      return { run, context: json ? NO_CONTEXT : await runContext(client, run) };
    }, { start: true, progress: note });
    report(run, json, context);
    return exitCodeFor(run);
  },
});

/** A workflow name that exists nowhere is answered with the nearest one there is, as a mistyped command is. */
async function suggestWorkflow(client: WeftClient, name: string, error: unknown): Promise<unknown> {
  if (!(error instanceof WeftError) || error.code !== "NOT_FOUND") return error;
  const { workflows } = await client.call<{ workflows: WorkflowView[] }>("list_workflows")
    .catch(() => ({ workflows: [] as WorkflowView[] }));
  const meant = nearest(name, workflows.map((workflow) => workflow.name));
  if (!meant) return error;
  return new CommandFailure(
    "NOT_FOUND",
    `${error.message}; did you mean "${meant}"?`,
    `weft flow ${meant} … (\`weft flows\` lists the workflows of this project)`,
  );
}
