/**
 * How the terminal commands fail: every failure names its code, says what happened and how to fix it, and
 * ends the command with a distinct exit code. With `--json`, stdout also gets the failure as JSON so that a
 * script reads one document either way.
 *
 * @module
 */

import { ServiceOfflineError } from "../../client/connect.ts";
import { type ErrorCode, WeftError } from "../../errors.ts";
import { UsageError } from "../args.ts";
import { EXIT } from "../exit_codes.ts";
import { paint } from "../format.ts";

/** A command of the `weft` program: its arguments in, its exit code out. */
export type Command = (args: string[]) => Promise<number>;

/** A failure of the command itself (not of the service), with its own code and fix. */
export class CommandFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly fix: string,
    readonly exit: number = EXIT.FAILURE,
  ) {
    super(message);
    this.name = "CommandFailure";
  }
}

/** Fixes a command offers for service error codes, where it knows better than the generic ones. */
export type Fixes = Partial<Record<ErrorCode, string>>;

const GENERIC_FIXES: Record<ErrorCode, string> = {
  INVALID_REQUEST: "check the arguments against the command's --help",
  NOT_FOUND: "check the id; `weft runs` and `weft artifacts` list what exists",
  CONFLICT: "the Run changed meanwhile; look at it again with `weft run RUN` and retry",
  BUSY: "retry in a moment",
  CONFIGURATION_REQUIRED: "start this workflow from your IDE's agent (see `weft config <ide>`); " +
    "the service has no model of its own yet",
  AGENT_OUTPUT_INVALID: "the agent must correct its result; see `weft run RUN`",
  AGENT_CALL_FAILED: "see why with `weft run RUN`, then start a new Run",
  TOOL_FAILED: "see why with `weft run RUN` and `weft logs RUN`",
  RUN_INTERRUPTED: "the service restarted during the Run; start a new Run",
  BUDGET_EXCEEDED: "the Run looped past a step's budget; start a new Run or raise the budget in the workflow",
  STORAGE_ERROR: "check the disk and the state folder with `weft doctor`",
  INTERNAL: "retry; if it persists, `weft logs` shows what the service saw",
};

/** A failure as the terminal shows it. */
export interface FailureReport {
  code: string;
  message: string;
  fix: string;
  exit: number;
  retryable: boolean;
}

/** Classifies anything a command throws; `undefined` for usage errors, which `main` reports itself. */
export function describeFailure(error: unknown, fixes: Fixes = {}): FailureReport | undefined {
  if (error instanceof UsageError) return undefined;
  if (error instanceof CommandFailure) {
    return { code: error.code, message: error.message, fix: error.fix, exit: error.exit, retryable: false };
  }
  if (error instanceof ServiceOfflineError) {
    return error.needsRecovery
      ? {
        code: "NEEDS_RECOVERY",
        message: error.reason,
        fix: "`weft doctor` explains it; `weft start` clears a crashed service's leftovers safely",
        exit: EXIT.NEEDS_RECOVERY,
        retryable: false,
      }
      : {
        code: "SERVICE_OFFLINE",
        message: error.reason,
        fix: "start it with `weft start` (`weft flow` starts it by itself)",
        exit: EXIT.OFFLINE,
        retryable: true,
      };
  }
  if (error instanceof WeftError) {
    const fix = fixes[error.code] ?? GENERIC_FIXES[error.code];
    return { code: error.code, message: error.message, fix, exit: EXIT.FAILURE, retryable: error.retryable };
  }
  return {
    code: "FAILURE",
    message: (error as Error)?.message ?? String(error),
    fix: "`weft doctor` checks the project and its service",
    exit: EXIT.FAILURE,
    retryable: false,
  };
}

/**
 * Wraps a command so that its failures are reported with code and fix and end with their exit code. Usage
 * errors pass through to `main`, which prints them with a pointer to `--help`.
 */
export function guarded(name: string, command: Command, fixes: Fixes = {}): Command {
  return async (args) => {
    try {
      return await command(args);
    } catch (error) {
      const failure = describeFailure(error, fixes);
      if (!failure) throw error;
      const { exit, ...payload } = failure;
      if (args.includes("--json")) console.log(JSON.stringify({ error: payload }));
      console.error(
        `${
          paint("red", `weft ${name}: ${failure.code}`, Deno.stderr)
        }: ${failure.message}\n  fix: ${failure.fix}`,
      );
      return exit;
    }
  };
}
