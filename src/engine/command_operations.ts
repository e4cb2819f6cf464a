/**
 * The engine's operations on a pending command, which the service's command executor (`src/commands/`)
 * drives: the command as its step declares it, and the executor's report of starting it, leaving it
 * untrusted, how it ended or why it could not start. Each changes the Run through {@linkcode RunAccess},
 * which refuses a command the Run no longer waits on; what a change does is decided in
 * `command_transitions.ts`.
 *
 * @module
 */
import { type CommandResult, type CommandSpec, commandSpec } from "./command_step.ts";
import { blockCommand, completeCommand, failCommand, startCommand } from "./command_transitions.ts";
import type { RunAccess } from "./run_access.ts";
import type { Storage } from "./storage.ts";
import type { RunView } from "./views.ts";

/** Names one pending command: the Run's `pendingCommand.id` is the `commandId`. */
export interface CommandRef {
  runId: string;
  commandId: string;
}

/** How a command step may fail to start, as the service's command executor classifies it. */
export type CommandFailureCode = "COMMAND_UNAVAILABLE" | "CONFIGURATION_REQUIRED";

/** Options of `Engine.startCommand`. */
export interface StartCommandOptions extends CommandRef {
  /** The program and its arguments as they run. */
  argv: string[];
  /** The folder it runs in, project-relative. */
  cwd: string;
}

/** Options of `Engine.blockCommand`. */
export interface BlockCommandOptions extends CommandRef {
  /** Why it does not run, and what the person can do. */
  reason: string;
}

/** Options of `Engine.completeCommand`. */
export interface CompleteCommandOptions extends CommandRef {
  result: CommandResult;
}

/** Options of `Engine.failCommand`. */
export interface FailCommandOptions extends CommandRef {
  code: CommandFailureCode;
  message: string;
}

/** The operations on pending commands. */
export class CommandOperations {
  constructor(private readonly access: RunAccess, private readonly storage: Storage) {}

  /** The pending command as the step of the Run's definition declares it. */
  spec({ runId, commandId }: CommandRef): Promise<CommandSpec> {
    return this.storage.read(async (unit) => {
      const { workflow, step } = await this.access.pendingStep(unit, runId, { commandId }, "command");
      return commandSpec(step, workflow.origin);
    });
  }

  /** Marks the pending command as running `argv` in `cwd` (project-relative); a restart interrupts it. */
  start({ runId, commandId, argv, cwd }: StartCommandOptions): Promise<RunView> {
    return this.access.change(runId, { commandId }, (change) => startCommand(change, argv, cwd));
  }

  /** Leaves the Run waiting on its command, which the person has not trusted, with the reason. */
  block({ runId, commandId, reason }: BlockCommandOptions): Promise<RunView> {
    return this.access.change(runId, { commandId }, (change) => blockCommand(change, reason));
  }

  /** Records how the pending command ended and continues by its outcome. */
  complete({ runId, commandId, result }: CompleteCommandOptions): Promise<RunView> {
    return this.access.change(runId, { commandId }, (change) => completeCommand(change, result));
  }

  /** Fails the Run of a pending command that could not start. */
  fail(
    { runId, commandId, code, message }: FailCommandOptions,
  ): Promise<RunView> {
    return this.access.change(runId, { commandId }, (change) => failCommand(change, code, message));
  }
}
