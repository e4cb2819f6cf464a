/**
 * How the `weft` command fails: every failure has a code (from the service's catalog or the CLI's own list),
 * says what happened and the action that fixes it, and ends the command with a distinct exit code. With
 * `--json`, stdout gets the failure as `{"error":{code,message,retryable,fix}}`, so that a script reads one
 * document either way.
 *
 * @module
 */

import { ClientFailure } from "../../client/failure.ts";
import { ServiceOfflineError, UntrustedStateOffline } from "../../client/offline.ts";
import { UNTRUSTED_FIX, UntrustedStateError } from "../../weft_dir/trust.ts";
import {
  type ErrorCode,
  isRetryable,
  isServiceErrorCode,
  isWeftErrorCode,
  WeftError,
  type WeftErrorCode,
} from "../../errors.ts";
import { UsageError } from "./args.ts";
import { EXIT } from "./exit_codes.ts";
import { paint } from "../terminal/format.ts";
import { currentProject, pasteableText } from "../terminal/invocation.ts";
import { say } from "../terminal/screen.ts";
import { visibleJson } from "../../lib/visible_text.ts";

/** Any code the CLI may print: every code of the catalog. */
export type FailureCode = WeftErrorCode;

/** Whether `code` is one the CLI may print (e.g. read back from `weft serve`'s ready line). */
export const isFailureCode = isWeftErrorCode;

/** A failure of the command itself (not of the service), with its own code and fix. */
export class CommandFailure extends WeftError {
  constructor(code: FailureCode, message: string, readonly fix: string) {
    super(code, message);
    this.name = "CommandFailure";
  }
}

/**
 * Why a file could not be written, in words (never the OS's text, which names syscalls and error numbers).
 */
export function writeFailureReason(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "its folder does not exist";
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (error instanceof Deno.errors.IsADirectory) return "it is a folder";
  if (error instanceof Deno.errors.NotADirectory) return "a part of its path is a file, not a folder";
  return `the system refused (${(error as Error)?.name ?? "unknown error"})`;
}

/** Fixes a command offers for service error codes, where it knows better than the generic ones. */
export type Fixes = Partial<Record<ErrorCode, string>>;

const GENERIC_FIXES: Record<ErrorCode, string> = {
  INVALID_REQUEST: "check the arguments against the command's --help",
  NOT_FOUND: "check the id; `weft runs` and `weft artifacts` list what exists",
  CONFLICT: "the Run changed meanwhile; look at it again with `weft run RUN` and retry",
  NOT_ALLOWED: "answer the Run where it was started: in the terminal (`weft attach RUN`) or in Studio",
  BUSY: "retry in a moment",
  CONFIGURATION_REQUIRED: "configure the service's model in weft.json (`weft models` shows the roles, " +
    "docs/models.md how), or start this workflow from your IDE's agent (see `weft config <ide>`)",
  NOT_TRUSTED: "review what the project's weft.json asks for and trust it with `weft trust` (or in Studio)",
  AGENT_OUTPUT_INVALID: "the agent must correct its result; see `weft run RUN`",
  AGENT_CALL_FAILED: "see why with `weft run RUN`, then start a new Run",
  TOOL_FAILED: "see why with `weft run RUN` and `weft logs RUN`",
  RUN_INTERRUPTED: "the service restarted during the Run's agent call; resume it with `weft retry RUN`",
  MODEL_UNAVAILABLE: "check the model server (`weft doctor`), then resume with `weft retry RUN`",
  MODEL_REQUEST_FAILED:
    "the model server refused the request; `weft doctor` checks each role's key and model",
  PUBLISH_FAILED: "the Artifact is committed; fix the stage's publish template or path and commit again",
  COMMAND_UNAVAILABLE: "fix what the message names (install the program, name the command in weft.json, " +
    "create the folder), then resume with `weft retry RUN`",
  BUDGET_EXCEEDED: "the Run looped past a step's budget; start a new Run or raise the budget in the workflow",
  LIST_INVALID: "fix the items the message names, or split a list over its bound (in the plan, or the " +
    "workflow's list), then start a new Run",
  STORAGE_ERROR: "check the disk and the state folder with `weft doctor`",
  INTERNAL: "retry; if it persists, `weft logs` shows what the service saw",
};

/** The exit code of each failure code; anything not listed exits 1. */
const EXITS: Partial<Record<FailureCode, number>> = {
  USAGE: EXIT.USAGE,
  INVALID_INPUT: EXIT.USAGE,
  SERVICE_OFFLINE: EXIT.OFFLINE,
  NEEDS_RECOVERY: EXIT.NEEDS_RECOVERY,
};

/** A failure as the terminal shows it, and (without `exit`) as `--json` prints it. */
export interface FailureReport {
  code: FailureCode;
  message: string;
  retryable: boolean;
  fix: string;
  exit: number;
}

/** Classifies anything a command throws; `command` names it in the fix of a usage error. */
export function describeFailure(error: unknown, command: string, fixes: Fixes = {}): FailureReport {
  const report = (code: FailureCode, message: string, fix: string, retryable?: boolean) => ({
    code,
    message,
    retryable: retryable ?? isRetryable(code),
    fix,
    exit: EXITS[code] ?? EXIT.FAILURE,
  });
  if (error instanceof UsageError) {
    return report(
      "USAGE",
      error.message,
      command ? `see \`weft ${command} --help\`` : "`weft help` lists the commands",
    );
  }
  if (error instanceof CommandFailure) return report(error.code, error.message, error.fix);
  if (error instanceof ClientFailure) {
    return report(isFailureCode(error.code) ? error.code : "FAILURE", error.message, error.fix);
  }
  if (error instanceof ServiceOfflineError) {
    return error.needsRecovery
      ? report(
        "NEEDS_RECOVERY",
        error.reason,
        error instanceof UntrustedStateOffline
          ? `move it aside: ${UNTRUSTED_FIX}`
          : "`weft doctor` explains it; `weft start` clears a crashed service's leftovers safely",
      )
      : report(
        "SERVICE_OFFLINE",
        // Named, so that a person who ran the command from another folder sees which project was meant.
        currentProject() ? `${error.reason} (project ${currentProject()})` : error.reason,
        "start it with `weft start` (weft flow starts it by itself)",
      );
  }
  // A `.weft/` weft did not make, met where a command reads it without asking the service (`weft token`).
  if (error instanceof UntrustedStateError) return report("NEEDS_RECOVERY", error.message, error.fix);
  if (error instanceof WeftError && isServiceErrorCode(error.code)) {
    return report(error.code, error.message, fixes[error.code] ?? GENERIC_FIXES[error.code], error.retryable);
  }
  // The CLI's own codes keep their code and exit, whichever layer raised them (a held lock, say).
  if (error instanceof WeftError) {
    return report(error.code, error.message, "`weft doctor` checks the project and its service");
  }
  // Whatever reached no branch above, a failure of the project's state or of the transport included, is
  // reported as it always was: its message, with the generic fix.
  return report(
    "FAILURE",
    (error as Error)?.message ?? String(error),
    "`weft doctor` checks the project and its service",
  );
}

/**
 * Prints a failure once: as the one JSON document on stdout under `--json` (a script reads it there, and a
 * second copy on stderr would only be noise), else on stderr for people.
 */
export function printFailure(command: string, failure: FailureReport, json: boolean): void {
  const { exit: _, ...payload } = failure;
  // The JSON keeps the fix as the catalog words it: a script compares it, and prints it where it likes.
  if (json) return say(visibleJson({ error: payload }));
  const label = command ? `weft ${command}` : "weft";
  say(
    `${paint("red", `${label}: ${failure.code}`, Deno.stderr)}: ${failure.message}\n  fix: ${
      pasteableText(failure.fix)
    }`,
    Deno.stderr,
  );
}
