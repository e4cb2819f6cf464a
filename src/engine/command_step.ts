/**
 * What a command step hands the service and gets back: the declared command (for the executor to resolve,
 * check for trust and run) and its result, from which the state machine alone decides the outcome.
 *
 * @module
 */
import type { WorkflowOrigin } from "./views.ts";
import { COMMAND_TIMEOUT_SECONDS, type CommandStepDef } from "./workflow/manifest.ts";

/** One output stream of a finished command: its last bounded part, and how many bytes before it were cut. */
export interface StreamTail {
  text: string;
  cutBytes: number;
}

/** How a command ended, as `resultTo` receives it. */
export interface CommandResult {
  /** The exit code; null when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it (`SIGTERM`, …), or null. */
  signal: string | null;
  /** Whether its timeout ended it. */
  timedOut: boolean;
  durationMs: number;
  stdout: StreamTail;
  stderr: StreamTail;
}

/** How much of each stream the timeline's `command_ended` entry carries, in characters. */
export const TIMELINE_TAIL_CHARS = 4096;

/** The last `chars` characters of a tail, the bytes before them counted as cut. */
export function shorterTail(tail: StreamTail, chars: number = TIMELINE_TAIL_CHARS): StreamTail {
  if (tail.text.length <= chars) return tail;
  const dropped = tail.text.slice(0, tail.text.length - chars);
  return {
    text: tail.text.slice(-chars),
    cutBytes: tail.cutBytes + new TextEncoder().encode(dropped).length,
  };
}

/** The outcomes a command step produces. */
export type CommandOutcome = "passed" | "failed" | "timed_out";

/** The outcome of a result: `timed_out` when the timeout ended it, `passed` on exit 0, `failed` otherwise. */
export function commandOutcome(result: CommandResult): CommandOutcome {
  if (result.timedOut) return "timed_out";
  return result.exitCode === 0 ? "passed" : "failed";
}

/** A pending command as declared by the step of the Run's pinned definition. */
export interface CommandSpec {
  /** An argument vector, or the name of a command of the project's weft.json. */
  run: string[] | string;
  /** The project commands tried in order when weft.json does not name `run`. */
  fallback?: string[];
  cwd?: string;
  env: string[];
  timeoutSeconds: number;
  /** Where the workflow comes from: an embedded workflow's commands are trusted by shipping. */
  origin: WorkflowOrigin;
}

/** The spec of a command step of a workflow from `origin`, with its defaults filled in. */
export function commandSpec(step: CommandStepDef, origin: WorkflowOrigin): CommandSpec {
  return {
    run: step.run,
    ...(step.fallback !== undefined ? { fallback: step.fallback } : {}),
    ...(step.cwd !== undefined ? { cwd: step.cwd } : {}),
    env: step.env ?? [],
    timeoutSeconds: step.timeoutSeconds ?? COMMAND_TIMEOUT_SECONDS.default,
    origin,
  };
}
