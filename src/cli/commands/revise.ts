/**
 * `weft revise PATH`: brings a person's edits of a file weft published back into its Artifact. It starts a
 * revision Run: the agent (the service's model, or the IDE's agent without one) carries the edit into the
 * data, the person confirms the change (shown as diffs), and the next revision is committed and published
 * over the file. On a terminal it follows the Run as `weft flow` does.
 *
 * @module
 */

import { isAbsolute, relative, resolve, sep as SEPARATOR } from "node:path";
import type { RunView } from "../../client/views.ts";
import { PROMPT_OPTIONS, UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { follow, report } from "../run_views/follow.ts";
import { promptsHere } from "../terminal/prompt.ts";
import { withClient } from "../../client/weft_client.ts";
import { NO_CONTEXT, runContext } from "../run_views/run_context.ts";
import { exitCodeFor } from "../run_views/run_view.ts";
import { say } from "../terminal/screen.ts";

/** `weft revise` */
export const reviseCommand = defineCommand({
  name: "revise",
  summary: "bring your edits of a published file back as the next revision of its Artifact",
  synopsis: "revise <path> [--no-interactive]",
  description: `A stage that publishes writes each commit to a Markdown file, and leaves the file alone once
you edit it. \`weft revise PATH\` brings your edit back: it starts a revision Run of the Artifact
published at PATH, whose agent (the service's model, or without one your IDE's agent: the
command says what to tell it) carries the edit into the Artifact's data under the stage's
schema and checks. You confirm the change, shown as a diff of the data and of the
Markdown; then it is committed as the Artifact's next revision and published over your file. If
the file changes again before that, it is still left as it is.

On a terminal it then follows the Run like \`weft attach\`, asking for your confirmation; otherwise
(or with --no-interactive / --json) it prints the Run and exits.`,
  options: PROMPT_OPTIONS,
  json: 'print { "run": RunView }; progress goes to stderr',
  notes:
    "Exit codes: 0 started (completed or waiting), 1 error, 2 usage, 5 the Run failed, 6 it was cancelled.",
  fixes: {
    NOT_FOUND:
      "`weft doctor` lists the published files you edited; a deleted one is written again at the next commit",
    INVALID_REQUEST: "edit the file first: weft brings back only a change made since it wrote the file",
    CONFIGURATION_REQUIRED: "`weft models` says how to set up the service's model, which runs the revision",
  },
  async run({ options, positionals, projectDir, json }) {
    const [given, ...extra] = positionals;
    if (!given || extra.length) throw new UsageError("takes exactly one path of a published file");
    const path = projectPath(projectDir, given);
    const interactive = promptsHere(options, json);
    const progress = json ? Deno.stderr : Deno.stdout;
    const note = (line: string) => say(line, progress);
    const { run, context } = await withClient(projectDir, async (client) => {
      const { run: started } = await client.call<{ run: RunView }>("revise_artifact", { path });
      note(`started ${started.runId}: a revision of ${started.revisionOf?.artifactId} from ${path}`);
      const run = interactive ? await follow(client, started, { interactive, progress }) : started;
      return { run, context: json ? NO_CONTEXT : await runContext(client, run) };
    }, { start: true, progress: note });
    report(run, json, context);
    return exitCodeFor(run);
  },
});

/** `given` (relative to the working folder, or absolute) as a path relative to the project, `/` separated. */
function projectPath(projectDir: string, given: string): string {
  const inside = relative(projectDir, resolve(Deno.cwd(), given));
  if (!inside || inside === ".." || inside.startsWith(`..${SEPARATOR}`) || isAbsolute(inside)) {
    throw new UsageError(`${given} is not inside the project ${projectDir}`);
  }
  return inside.split(SEPARATOR).join("/");
}
