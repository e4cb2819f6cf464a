/**
 * `weft attach <runId>`: follows a Run, answers what it asks a person at terminal prompts, and keeps
 * following until the Run ends (`../run_views/follow.ts`).
 *
 * @module
 */

import { isActive } from "../../client/views.ts";
import { PROMPT_OPTIONS, UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { readJsonSource } from "../command_line/input.ts";
import { paint } from "../terminal/format.ts";
import { promptsHere } from "../terminal/prompt.ts";
import { follow, getRun, report } from "../run_views/follow.ts";
import { NO_CONTEXT, runContext } from "../run_views/run_context.ts";
import { exitCodeFor } from "../run_views/run_view.ts";
import { withClient } from "../../client/weft_client.ts";
import { say } from "../terminal/screen.ts";

/** `weft attach` */
export const attachCommand = defineCommand({
  name: "attach",
  summary: "follow a Run and answer its questions and confirmations",
  synopsis: "attach <runId> [--no-interactive] [--answer-json FILE|- [--action ID]]",
  description: `Follows a Run until it ends. On a terminal it asks you its questions and confirmations:
choose an option by number, skip where allowed, type free text, confirm with y or revise with r
and several lines of feedback (an empty line ends them). While an agent works it shows what it
waits for and for how long, and while a command step runs, its output as it arrives; Ctrl-C
detaches and the Run goes on.

Without a terminal (or with --no-interactive or --json) it never prompts: it stops at the first
wait, prints what the Run asks and exits 0.`,
  options: {
    ...PROMPT_OPTIONS,
    "answer-json": {
      type: "string",
      arg: "FILE|-",
      help: `answer the pending action with this exact JSON:
  questions:    [{ "questionId": "q", "isSkipped": false, "answer": "…" }, …]
  confirmation: { "isConfirmed": true } or
                { "isConfirmed": false, "feedback": "…" }
then follow on, stopping at the next wait`,
    },
    action: { type: "string", arg: "ID", help: "refuse (CONFLICT) unless the pending action is this one" },
  },
  json: 'print { "run": RunView }; progress goes to stderr',
  notes: `Exit codes: 0 ended completed or left waiting, 1 error, 2 usage, 3 service offline,
5 the Run failed, 6 the Run was cancelled.`,
  fixes: {
    NOT_FOUND: "check the Run id; `weft runs` lists the Runs",
    INVALID_REQUEST:
      "send an answer of the shape `weft attach --help` shows; `weft attach RUN` prints what " +
      "the Run asks, with its answer JSON",
  },
  async run({ options, positionals, projectDir, json }) {
    const [runId, ...extra] = positionals;
    if (!runId || extra.length) throw new UsageError("takes exactly one Run id");
    if (options.action !== undefined && options["answer-json"] === undefined) {
      throw new UsageError("--action goes with --answer-json");
    }
    const answer = options["answer-json"] === undefined ? undefined : {
      value: await readJsonSource(options["answer-json"], "--answer-json"),
      actionId: options.action,
    };
    const interactive = !answer && promptsHere(options, json);
    const progress = json ? Deno.stderr : Deno.stdout;
    const { run, context } = await withClient(projectDir, async (client) => {
      const current = await getRun(client, runId);
      if (interactive && isActive(current.status)) {
        say(paint("dim", `following ${runId}; Ctrl-C detaches and the Run goes on`));
      }
      const run = await follow(client, current, { interactive, progress, answer });
      return { run, context: json ? NO_CONTEXT : await runContext(client, run) };
    });
    report(run, json, context);
    return exitCodeFor(run);
  },
});
