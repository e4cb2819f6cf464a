/**
 * The `weft` command: dispatches to the subcommands and turns failures into messages and exit codes.
 *
 * @module
 */

import { UsageError } from "./args.ts";
import { EXIT } from "./exit_codes.ts";
import { VERSION } from "../version.ts";

type Command = (args: string[]) => Promise<number>;

/**
 * The commands. Each one's module is imported only when it runs, so `weft serve` loads the service and never
 * the client side of the SDK or the other commands: that is start-up time for every IDE that launches weft.
 * The specifiers stay literal so that `deno bundle` and `deno compile` include every module.
 */
const COMMANDS: Record<string, { load: () => Promise<Command>; summary: string }> = {
  start: {
    load: async () => (await import("./lifecycle.ts")).startCommand,
    summary: "start the service for a project in the background (or reuse it)",
  },
  stop: {
    load: async () => (await import("./lifecycle.ts")).stopCommand,
    summary: "stop the service of a project",
  },
  status: {
    load: async () => (await import("./lifecycle.ts")).statusCommand,
    summary: "say whether the service runs: running, offline or needs recovery",
  },
  serve: {
    load: async () => (await import("./serve.ts")).serveCommand,
    summary: "run the service in the foreground (for sidecars and tests)",
  },
  mcp: {
    load: async () => (await import("./bridge.ts")).mcpCommand,
    summary: "speak MCP on stdin/stdout for an IDE, bridged to the project's service",
  },
  config: {
    load: async () => (await import("./ide_config.ts")).configCommand,
    summary: "print the MCP entry for codex, claude, cursor or vscode",
  },
  token: {
    load: async () => (await import("./token.ts")).tokenCommand,
    summary: "print the IDE token, for the HTTP form of `weft config`",
  },
  doctor: {
    load: async () => (await import("./commands/doctor.ts")).doctorCommand,
    summary: "check the project and its service; each finding comes with its fix",
  },
  flows: {
    load: async () => (await import("./commands/flows.ts")).flowsCommand,
    summary: "list the workflows, and why one cannot run",
  },
  flow: {
    load: async () => (await import("./commands/flow.ts")).flowCommand,
    summary: "start a Run of a workflow for your intent (starts the service if needed)",
  },
  runs: {
    load: async () => (await import("./commands/runs.ts")).runsCommand,
    summary: "list Runs, newest first",
  },
  run: {
    load: async () => (await import("./commands/run.ts")).runCommand,
    summary: "show a Run with its timeline",
  },
  attach: {
    load: async () => (await import("./commands/attach.ts")).attachCommand,
    summary: "follow a Run and answer its questions and confirmations",
  },
  cancel: {
    load: async () => (await import("./commands/cancel.ts")).cancelCommand,
    summary: "cancel an active Run",
  },
  artifacts: {
    load: async () => (await import("./commands/artifacts.ts")).artifactsCommand,
    summary: "list what stages committed",
  },
  artifact: {
    load: async () => (await import("./commands/artifact.ts")).artifactCommand,
    summary: "show or export one Artifact",
  },
  record: {
    load: async () => (await import("./commands/record.ts")).recordCommand,
    summary: "show one Record: what was committed, by which Run, from which answers",
  },
  logs: {
    load: async () => (await import("./commands/logs.ts")).logsCommand,
    summary: "print the service's logs of this project (--follow to keep reading)",
  },
};

/** The top-level help. */
export function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`);
  return `weft ${VERSION}: a local workflow service for your IDE's agent, your code and you.

Usage: weft <command> [--project DIR] [--port N] [--json]

Commands:
${lines.join("\n")}

Every command takes --help. --project defaults to the working directory.`;
}

/** Runs the command line `args` and resolves with the process exit code. */
export async function main(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    console.log(helpText());
    return name === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (name === "--version" || name === "version") {
    console.log(VERSION);
    return EXIT.OK;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`weft: unknown command "${name}"\n\n${helpText()}`);
    return EXIT.USAGE;
  }
  try {
    return await (await command.load())(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`weft ${name}: ${error.message}\n  see: weft ${name} --help`);
      return EXIT.USAGE;
    }
    console.error(`weft ${name}: ${(error as Error).message}`);
    return EXIT.FAILURE;
  }
}
