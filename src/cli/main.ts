/**
 * The `weft` command: dispatches to the subcommands and turns failures into messages and exit codes.
 *
 * @module
 */

import { UsageError } from "./args.ts";
import { EXIT } from "./exit_codes.ts";
import { startCommand, statusCommand, stopCommand } from "./lifecycle.ts";
import { serveCommand } from "./serve.ts";
import { mcpCommand } from "./bridge.ts";
import { configCommand } from "./ide_config.ts";
import { tokenCommand } from "./token.ts";
import { artifactCommand } from "./commands/artifact.ts";
import { artifactsCommand } from "./commands/artifacts.ts";
import { attachCommand } from "./commands/attach.ts";
import { cancelCommand } from "./commands/cancel.ts";
import { doctorCommand } from "./commands/doctor.ts";
import { flowCommand } from "./commands/flow.ts";
import { flowsCommand } from "./commands/flows.ts";
import { logsCommand } from "./commands/logs.ts";
import { recordCommand } from "./commands/record.ts";
import { runCommand } from "./commands/run.ts";
import { runsCommand } from "./commands/runs.ts";
import { VERSION } from "../version.ts";

type Command = (args: string[]) => Promise<number>;

const COMMANDS: Record<string, { run: Command; summary: string }> = {
  start: { run: startCommand, summary: "start the service for a project in the background (or reuse it)" },
  stop: { run: stopCommand, summary: "stop the service of a project" },
  status: { run: statusCommand, summary: "say whether the service runs: running, offline or needs recovery" },
  serve: { run: serveCommand, summary: "run the service in the foreground (for sidecars and tests)" },
  mcp: { run: mcpCommand, summary: "speak MCP on stdin/stdout for an IDE, bridged to the project's service" },
  config: { run: configCommand, summary: "print the MCP entry for codex, claude, cursor or vscode" },
  token: { run: tokenCommand, summary: "print the IDE token, for the HTTP form of `weft config`" },
  doctor: {
    run: doctorCommand,
    summary: "check the project and its service; each finding comes with its fix",
  },
  flows: { run: flowsCommand, summary: "list the workflows, and why one cannot run" },
  flow: {
    run: flowCommand,
    summary: "start a Run of a workflow for your intent (starts the service if needed)",
  },
  runs: { run: runsCommand, summary: "list Runs, newest first" },
  run: { run: runCommand, summary: "show a Run with its timeline" },
  attach: { run: attachCommand, summary: "follow a Run and answer its questions and confirmations" },
  cancel: { run: cancelCommand, summary: "cancel an active Run" },
  artifacts: { run: artifactsCommand, summary: "list what stages committed" },
  artifact: { run: artifactCommand, summary: "show or export one Artifact" },
  record: {
    run: recordCommand,
    summary: "show one Record: what was committed, by which Run, from which answers",
  },
  logs: { run: logsCommand, summary: "print the service's logs of this project (--follow to keep reading)" },
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
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`weft ${name}: ${error.message}\n  see: weft ${name} --help`);
      return EXIT.USAGE;
    }
    console.error(`weft ${name}: ${(error as Error).message}`);
    return EXIT.FAILURE;
  }
}
