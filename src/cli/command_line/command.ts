/**
 * The one way to declare a `weft` command. A declaration names the command, documents it and types its
 * options; {@linkcode defineCommand} turns it into a {@linkcode Command} that parses the command line, prints
 * `--help`, checks `--project`, and reports every failure with its code and fix — on stdout as
 * `{"error":{code,message,retryable,fix}}` under `--json` — so that no command can miss the contract.
 *
 * A new command is a module that exports `defineCommand({ … })` and one line in `main.ts`'s list:
 *
 * ```ts
 * export const cancelCommand = defineCommand({
 *   name: "cancel",
 *   summary: "cancel an active Run",
 *   synopsis: "cancel <runId>",
 *   description: "Cancels an active Run; what it already committed stays.",
 *   json: 'print { "run": RunView }',
 *   async run({ positionals, projectDir, json }) { … return EXIT.OK; },
 * });
 * ```
 *
 * @module
 */

import {
  COMMON_OPTIONS,
  type OptionSpec,
  type OptionSpecs,
  parseCommandLine,
  type ParsedArgs,
} from "./args.ts";
import { EXIT } from "./exit_codes.ts";
import { CommandFailure, describeFailure, type Fixes, printFailure } from "./failure.ts";
import { useProject } from "../terminal/invocation.ts";
import { say } from "../terminal/screen.ts";
import { disableColor } from "../terminal/format.ts";

/** What a command's `run` receives: its typed options, its positionals and the common options. */
export interface CommandInput<O extends OptionSpecs> extends ParsedArgs<O> {
  /** The command line as given (after the command's name), e.g. to print the command of a next page. */
  args: string[];
}

/** The declaration of a command. */
export interface CommandSpec<O extends OptionSpecs> {
  /** The word after `weft`. */
  name: string;
  /** One line for `weft help`. */
  summary: string;
  /** The command line after `weft`, without the common options (`[--project DIR] [--json]` are added). */
  synopsis: string;
  /** What the command does, for its `--help`. */
  description: string;
  /** The command's own options; `--project`, `--json` and `--help` come with every command. */
  options?: O;
  /** What `--json` prints on success, for `--help`. */
  json?: string;
  /** Anything `--help` ends with, such as the exit codes. */
  notes?: string;
  /** Fixes this command knows better than the generic ones, by service error code. */
  fixes?: Fixes;
  /** Does the work; resolves with the exit code. Throw a `UsageError` or `CommandFailure` to fail. */
  run(input: CommandInput<O>): Promise<number>;
}

/** A runnable command. */
export interface Command {
  name: string;
  summary: string;
  /** The `--help` text (also `weft help <name>`). */
  help(): string;
  /** Runs the command line `args` (after the name); resolves with the exit code. */
  main(args: string[]): Promise<number>;
}

/** Turns a declaration into a command that keeps the CLI's parsing, help and error contracts. */
export function defineCommand<const O extends OptionSpecs = Record<never, OptionSpec>>(
  spec: CommandSpec<O>,
): Command {
  const help = () => helpText(spec);
  return {
    name: spec.name,
    summary: spec.summary,
    help,
    async main(args) {
      // Known before parsing, so that a command line too broken to parse still gets its JSON error.
      let json = args.includes("--json");
      try {
        const parsed = parseCommandLine(args, spec.options ?? ({} as O));
        json = parsed.json;
        if (parsed.noColor) disableColor();
        useProject(parsed.projectDir);
        if (parsed.help) {
          say(help());
          return EXIT.OK;
        }
        if (parsed.projectGiven) await checkProject(parsed.projectDir);
        return await spec.run({ ...parsed, args });
      } catch (error) {
        const failure = describeFailure(error, spec.name, spec.fixes);
        printFailure(spec.name, failure, json);
        return failure.exit;
      } finally {
        useProject(undefined);
      }
    },
  };
}

/** A project named with `--project` must be an existing directory: a typo must never create one. */
async function checkProject(dir: string): Promise<void> {
  const info = await Deno.stat(dir).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  if (!info) {
    throw new CommandFailure(
      "PROJECT_NOT_FOUND",
      `the project directory ${dir} does not exist`,
      "check the path given to --project (weft never creates a project directory)",
    );
  }
  if (!info.isDirectory) {
    throw new CommandFailure(
      "PROJECT_NOT_FOUND",
      `--project must name a directory, and ${dir} is a file`,
      "pass the project's directory, the one that holds workflows/",
    );
  }
}

function helpText<O extends OptionSpecs>(spec: CommandSpec<O>): string {
  const options: [string, string][] = [
    ...Object.entries(spec.options ?? {}).map(([name, option]) => optionRow(name, option)),
    optionRow("project", COMMON_OPTIONS.project),
    ["--json", [spec.json ?? "print JSON on stdout", COMMON_OPTIONS.json.help].join("\n")],
    ["--no-color", COMMON_OPTIONS["no-color"].help],
    ["-h, --help", COMMON_OPTIONS.help.help],
  ];
  const width = Math.max(...options.map(([left]) => left.length));
  const rows = options.map(([left, text]) =>
    `  ${left.padEnd(width)}  ${text.replaceAll("\n", "\n" + " ".repeat(width + 4))}`
  );
  return [
    `Usage: weft ${spec.synopsis} [--project DIR] [--json]`,
    "",
    spec.description,
    "",
    "Options:",
    ...rows,
    ...(spec.notes ? ["", spec.notes] : []),
  ].join("\n");
}

function optionRow(name: string, option: OptionSpec): [string, string] {
  const short = "short" in option && option.short ? `-${option.short}, ` : "";
  const arg = option.type === "boolean" ? "" : ` ${option.arg}`;
  return [`${short}--${name}${arg}`, option.help];
}
