/**
 * `weft trust [--yes | --revoke]`: shows what the project's files ask weft to do that can send data off the
 * machine, spend money or run a program (each model role of weft.json: provider, URL, key variable, model;
 * each project command and each command step of the project's workflows), and trusts exactly that content
 * when the person says so. Works without the service: the record is the person's own
 * file, which the service reads at every use.
 *
 * @module
 */

import { PROMPT_OPTIONS, UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { paint, printJson, table } from "../terminal/format.ts";
import { Prompter, promptsHere } from "../terminal/prompt.ts";
import { grantTrust, projectKey, reviewTrust, revokeTrust, type TrustReview } from "../../service/trust.ts";
import { say } from "../terminal/screen.ts";
import { argvText, shellWord } from "../../lib/argv_text.ts";
import { visibleLine } from "../../lib/visible_text.ts";

/** `weft trust` */
export const trustCommand = defineCommand({
  name: "trust",
  summary: "review the models and commands this project asks for and trust them (or revoke)",
  synopsis: "trust [--yes | --revoke]",
  description: `A cloned repository's weft.json may name any model server and any environment variable as
its key: used as they are, your project's files and your keys would go wherever it says. So weft
uses the project's model entries only once you trust exactly that content; until then your own
user file (see \`weft models\`) applies, and a Run that needs the project's entry is refused with
NOT_TRUSTED. Likewise a command (weft.json's \`commands\`, a workflow's command step) runs only
once you trust it; until then its Run waits, and \`weft retry RUN\` runs it after you trust it.

Shows each role the project names (provider, URL, the variable whose value is sent as the key,
model), each command (its exact argument vector, folder and passed-through variables) and the
digest of that content, and asks at a terminal. The record is kept in your user config folder,
bound to this project's real path and the digest: any change of the models or commands is asked
again. Nothing in a repository can grant it.`,
  options: {
    ...PROMPT_OPTIONS,
    yes: { type: "boolean", short: "y", help: "trust what is shown without asking, and print it" },
    revoke: { type: "boolean", help: "forget the trust of this project" },
  },
  json: 'print { "project", "trust": { state, digest, content, roles, problem? } }',
  notes: "Exit code 0 when the project's content is trusted (or needs no trust, or --revoke), 1 when it\n" +
    "stays untrusted (declined, or no terminal to ask at without --yes).",
  async run({ options, positionals, projectDir, json }) {
    if (positionals.length) throw new UsageError("takes no arguments");
    if (options.yes && options.revoke) throw new UsageError("pass --yes or --revoke, not both");
    const project = projectKey(projectDir) ?? projectDir;
    const print = (review: TrustReview, line: string) => {
      if (json) printJson({ project, trust: review });
      else say(`${describe(review)}\n\n${line}`);
    };
    if (options.revoke) {
      const review = await revokeTrust(projectDir);
      print(
        review,
        `${project}: trust revoked; weft uses none of its models or commands until you trust again`,
      );
      return EXIT.OK;
    }
    const shown = reviewTrust(projectDir);
    if (shown.state !== "not_trusted") {
      print(
        shown,
        shown.state === "trusted"
          ? `${project}: trusted (this exact content)`
          : shown.problem
          ? `nothing to trust: weft.json does not load (${shown.problem})`
          : "nothing to trust: this project names no models and no commands",
      );
      return EXIT.OK;
    }
    const interactive = !options.yes && promptsHere(options, json);
    if (!options.yes && !interactive) {
      print(
        shown,
        "not trusted: weft asks only at a terminal; `weft trust --yes` trusts exactly this content",
      );
      return EXIT.FAILURE;
    }
    if (interactive && !await ask(shown, project)) {
      say("not trusted; nothing changed");
      return EXIT.FAILURE;
    }
    const review = await grantTrust(projectDir, shown.digest);
    const line = `${project}: trusted; weft uses these until they change ` +
      "(`weft trust --revoke` forgets it)";
    if (interactive) say(line);
    else print(review, line);
    return EXIT.OK;
  },
  fixes: { CONFLICT: "weft.json changed while you were asked: run `weft trust` again and review it" },
});

/**
 * The content as a person reviews it: one row per role, one per command. Every field is one visible line and
 * a command its shell words (`argvText`), so that no character of the project's files can make a row read
 * other than what would run.
 */
function describe(review: TrustReview): string {
  const { commands = {}, commandSteps = [], editSteps = [] } = review.content;
  if (!review.roles.length && !Object.keys(commands).length && !commandSteps.length && !editSteps.length) {
    return "This project names no models and no commands.";
  }
  return [
    ...describeModels(review),
    ...describeCommands(review),
    ...describeEdits(review),
    `digest ${review.digest}`,
  ]
    .join("\n");
}

/** The steps whose agent may change the project's files, with the tools each declares. */
function describeEdits(review: TrustReview): string[] {
  const { editSteps = [] } = review.content;
  if (!editSteps.length) return [];
  return [
    "The agents of these workflow steps could change the project's files (never .git, .weft or .env*):",
    "",
    table(
      ["WHERE", "TOOLS"],
      editSteps.map((step) => [
        paint("bold", visibleLine(`${step.workflow} ${step.stage}/${step.step}`)),
        visibleLine(step.tools.join(", ")),
      ]),
    ),
    "",
  ];
}

/** The commands as a person reviews them: each runs on this machine with the named variables. */
function describeCommands(review: TrustReview): string[] {
  const { commands = {}, commandSteps = [] } = review.content;
  const rows = [
    ...Object.entries(commands).map(([name, argv]) => [`weft.json commands.${name}`, argvText(argv), "", ""]),
    ...commandSteps.map((step) => [
      `${step.workflow} ${step.stage}/${step.step}`,
      typeof step.run === "string" ? commandNames(step.run, step.fallback) : argvText(step.run),
      step.cwd === undefined ? "." : shellWord(step.cwd),
      argvText(step.env) || "none",
    ]),
  ];
  if (!rows.length) return [];
  return [
    "These commands would run on this machine, as you, in the project:",
    "",
    table(
      ["WHERE", "RUNS", "FOLDER", "VARIABLES"],
      rows.map(([where, ...rest]) => [paint("bold", visibleLine(where)), ...rest.map(visibleLine)]),
    ),
    "",
  ];
}

/** A step's project command and the ones tried after it when weft.json does not name it, in order. */
function commandNames(run: string, fallback: string[] = []): string {
  return [run, ...fallback].map((name) => `commands.${name}`).join(" or ");
}

function describeModels(review: TrustReview): string[] {
  if (!review.roles.length) return [];
  return [
    "This project's weft.json names these models; each would receive the project's files and intents,",
    "and the value of its key variable:",
    "",
    table(
      ["ROLE", "PROVIDER", "URL", "KEY VARIABLE", "MODEL"],
      review.roles.map((role) => [
        paint("bold", visibleLine(role.role)),
        ...[role.provider, role.baseURL, role.apiKeyEnv ?? "none", role.model].map(visibleLine),
      ]),
    ),
    "",
  ];
}

/** Shows the content and asks at the terminal; the input ending is a no. */
async function ask(review: TrustReview, project: string): Promise<boolean> {
  say(describe(review) + "\n");
  const prompter = new Prompter();
  try {
    const answer = await prompter.choose(`Trust exactly this content for ${project}? [y/N] `, [
      { keys: ["y", "yes"], value: true },
      { keys: ["n", "no", ""], value: false },
    ]);
    return answer === true;
  } finally {
    await prompter.close();
  }
}
