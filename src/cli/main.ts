/**
 * The `weft` command: finds the command named first and runs it. Every command is declared with
 * `defineCommand` (see `command_line/command.ts`), which parses, prints help and reports failures the same way for all.
 *
 * @module
 */

import type { Command } from "./command_line/command.ts";
import { EXIT } from "./command_line/exit_codes.ts";
import { describeFailure, printFailure } from "./command_line/failure.ts";
import { UsageError } from "./command_line/args.ts";
import { nearest } from "./command_line/suggest.ts";
import { VERSION } from "../version.ts";
import { say } from "./terminal/screen.ts";
import { disableColor } from "./terminal/format.ts";

/**
 * The commands, in the order `weft help` lists them. Each one's module is imported only when it runs, so
 * `weft serve` loads the service and never the client side of the SDK or the other commands: that is
 * start-up time for every IDE that launches weft. The specifiers stay literal so that `deno bundle` and
 * `deno compile` include every module.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  init: async () => (await import("./commands/init.ts")).initCommand,
  start: async () => (await import("./commands/start.ts")).startCommand,
  stop: async () => (await import("./commands/stop.ts")).stopCommand,
  status: async () => (await import("./commands/status.ts")).statusCommand,
  serve: async () => (await import("./commands/serve.ts")).serveCommand,
  mcp: async () => (await import("./commands/mcp.ts")).mcpCommand,
  config: async () => (await import("./commands/config.ts")).configCommand,
  token: async () => (await import("./commands/token.ts")).tokenCommand,
  doctor: async () => (await import("./commands/doctor.ts")).doctorCommand,
  flows: async () => (await import("./commands/flows.ts")).flowsCommand,
  flow: async () => (await import("./commands/flow.ts")).flowCommand,
  runs: async () => (await import("./commands/runs.ts")).runsCommand,
  run: async () => (await import("./commands/run.ts")).runCommand,
  tasks: async () => (await import("./commands/tasks.ts")).tasksCommand,
  attach: async () => (await import("./commands/attach.ts")).attachCommand,
  cancel: async () => (await import("./commands/cancel.ts")).cancelCommand,
  move: async () => (await import("./commands/move.ts")).moveCommand,
  retry: async () => (await import("./commands/retry.ts")).retryCommand,
  revise: async () => (await import("./commands/revise.ts")).reviseCommand,
  studio: async () => (await import("./commands/studio.ts")).studioCommand,
  artifacts: async () => (await import("./commands/artifacts.ts")).artifactsCommand,
  artifact: async () => (await import("./commands/artifact.ts")).artifactCommand,
  record: async () => (await import("./commands/record.ts")).recordCommand,
  logs: async () => (await import("./commands/logs.ts")).logsCommand,
  models: async () => (await import("./commands/models.ts")).modelsCommand,
  trust: async () => (await import("./commands/trust.ts")).trustCommand,
  team: async () => (await import("./commands/team.ts")).teamCommand,
};

/** Every command, loaded (for the overall help and for tests that check all of them). */
export async function allCommands(): Promise<Command[]> {
  return await Promise.all(Object.values(COMMANDS).map((load) => load()));
}

/** The top-level help: every command with its summary. */
export async function helpText(): Promise<string> {
  const commands = await allCommands();
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `weft ${VERSION}: a local workflow service for your IDE's agent, your code and you.

Usage: weft [--no-color] <command> [options] [--project DIR] [--json]

Commands:
${lines.join("\n")}

\`weft help <command>\` (or \`weft <command> --help\`) describes a command and its options.
--project defaults to the working directory.`;
}

/** Runs the command line `args` and resolves with the process exit code. */
export async function main(args: string[]): Promise<number> {
  // `--no-color` may come before the command too, as many programs take it.
  const first = args.findIndex((arg) => arg !== "--no-color");
  const start = first < 0 ? args.length : first;
  if (start > 0) disableColor();
  const [name, ...rest] = args.slice(start);
  if (name === undefined || name === "--help" || name === "-h" || (name === "help" && !rest.length)) {
    say(await helpText());
    return name === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (name === "--version" || name === "version") {
    // The target says which of the release builds this is (a compiled binary reports the one it was built for).
    say(`weft ${VERSION} (${Deno.build.target})`);
    return EXIT.OK;
  }
  try {
    if (name === "help") return await find(rest[0]).then((command) => print(command.help()));
    return await (await find(name)).main(rest);
  } catch (error) {
    const failure = describeFailure(error, "");
    printFailure("", failure, args.includes("--json"));
    return failure.exit;
  }
}

/** The command called `name`; an unknown name is a usage error that suggests the nearest command. */
async function find(name: string): Promise<Command> {
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (load) return await load();
  const meant = nearest(name, Object.keys(COMMANDS));
  throw new UsageError(`unknown command "${name}"` + (meant ? `; did you mean \`${meant}\`?` : ""));
}

function print(text: string): number {
  say(text);
  return EXIT.OK;
}
