/**
 * The state machine's transitions of a command step: publishing its pending command, the service starting
 * it or leaving it untrusted, and how it ends. From a command's result the state machine alone decides the
 * outcome. Like every transition they only change the Run in memory and record timeline events; the engine
 * applies them.
 *
 * @module
 */
import { ERROR_CODES, type ErrorCode, invalid } from "../errors.ts";
import { commandOutcome, type CommandResult, shorterTail } from "./command_step.ts";
import { newId } from "./ids.ts";
import type { RunChange } from "./run_change.ts";
import { commandEnded } from "./list_transitions.ts";

/** Publishes a new pending command for the current (command) step, with a fresh id: the Run waits for it. */
export function openCommand(change: RunChange): void {
  const { run, at } = change;
  const step = change.step;
  if (step.kind !== "command") throw invalid(`Run ${run.runId} is not at a command step`);
  run.status = "waiting";
  run.pendingCommand = { id: newId("cmd"), phase: "available", run: step.run, createdAt: at };
  change.record("command_requested", { commandId: run.pendingCommand.id });
}

/** Marks the pending command as running `argv` (persisted, so a restart interrupts it). */
export function startCommand(change: RunChange, argv: string[], cwd: string): void {
  const pending = change.run.pendingCommand!;
  pending.phase = "running";
  pending.run = argv;
  delete pending.reason;
  change.record("command_started", { commandId: pending.id, run: argv, cwd });
}

/** Leaves the Run waiting on a command the person has not trusted, saying why and what to do. */
export function blockCommand(change: RunChange, reason: string): void {
  const pending = change.run.pendingCommand!;
  pending.phase = "untrusted";
  pending.reason = reason;
  change.record("command_untrusted", { commandId: pending.id, reason });
}

/** Records how the pending command ended, writes it to `resultTo` and follows its outcome. */
export function completeCommand(change: RunChange, result: CommandResult): void {
  const { run } = change;
  const step = change.step;
  if (step.kind !== "command") throw invalid(`Run ${run.runId} is not at a command step`);
  const outcome = commandOutcome(result);
  const { exitCode, signal, timedOut, durationMs } = result;
  const ran = run.pendingCommand!.run;
  change.record("command_ended", {
    commandId: run.pendingCommand!.id,
    outcome,
    exitCode,
    signal,
    timedOut,
    durationMs,
    stdout: shorterTail(result.stdout),
    stderr: shorterTail(result.stderr),
  });
  delete run.pendingCommand;
  run.status = "running";
  commandEnded(change, outcome, result);
  // The state keeps what ran beside how it ended, so a review can say which command it was.
  const written = Array.isArray(ran) ? { ...result, run: ran } : result;
  if (!change.writeOrFail(step.resultTo, written)) return;
  change.advance(outcome);
}

/** Fails the Run of a pending command that could not start, with the classified reason. */
export function failCommand(change: RunChange, code: ErrorCode, message: string): void {
  change.record("command_failed", { commandId: change.run.pendingCommand!.id, code });
  change.fail(code, message, ERROR_CODES[code].retryable);
}
