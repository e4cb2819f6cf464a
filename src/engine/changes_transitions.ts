/**
 * The state machine's transitions around the project's changes: marking the files as they are when a point
 * of the Run begins (a baseline: the Run's start, a stage's entry, a list item's start), and the `changes`
 * step, which writes what changed since its baseline into the stage state and follows `changed` or
 * `unchanged`. Both need the project's files, which the state machine never touches: it queues what it needs
 * (`RunChange.projectReads`) and stops, the engine reads through its {@linkcode ProjectChanges} port outside
 * any transaction (`run_access.ts`) and hands the answer back here, and the change goes on.
 *
 * @module
 */
import { errorKind, type ErrorPayload, errorPayload, WeftError } from "../errors.ts";
import type { ChangesSince, ProjectChanges } from "./project_changes.ts";
import type { RunChange } from "./run_change.ts";
import type { NewRunEvent } from "./run_state.ts";
import { bounded } from "../lib/unified_diff.ts";
import { CHANGES_DIFF_BYTES, type ChangesStepDef, type StageDef } from "./workflow/manifest.ts";

/** What a change needs read from the project's files before it can go on. */
export type ProjectRead =
  | { kind: "mark"; baseline: string; event: NewRunEvent }
  | { kind: "changes"; baseline: string; maxDiffBytes: number };

/** What a read gave: its value, or the classified failure. */
export type ReadResult<T> = { ok: true; value: T } | { ok: false; error: ErrorPayload };

/**
 * Marks the baseline `baseline` as it begins now, when a `changes` step will compare with it: any step of
 * the workflow for `run`, a step of the current stage for any other point (`stage`, or a list stage's
 * `item`: its item start calls this with `"item"`). Nothing is read for a workflow that never compares.
 */
export function beginBaseline(change: RunChange, baseline: string): void {
  const stages = baseline === "run" ? Object.values(change.workflow.manifest.stages) : [change.stage];
  if (stages.some((stage) => wantsBaseline(stage, baseline))) markBaseline(change, baseline);
}

/** Whether a `changes` step of `stage` compares with `baseline`. */
function wantsBaseline(stage: StageDef, baseline: string): boolean {
  return Object.values(stage.steps).some((step) => step.kind === "changes" && step.since === baseline);
}

/**
 * Asks for the project's files to be marked as the baseline `baseline` (replacing an earlier one). Its
 * timeline event takes its place now, where the baseline begins, and says how the mark went once it is read.
 */
function markBaseline(change: RunChange, baseline: string): void {
  change.record("changes_baseline", { baseline });
  change.projectReads.push({ kind: "mark", baseline, event: change.events[change.events.length - 1] });
}

/** Keeps the mark of `baseline`, or says in its event why there is none (a `changes` step then fails). */
export function baselineMarked(
  change: RunChange,
  read: ProjectRead & { kind: "mark" },
  result: ReadResult<string>,
): void {
  const baselines = change.run.baselines ??= {};
  if (result.ok) {
    baselines[read.baseline] = result.value;
  } else {
    delete baselines[read.baseline];
    Object.assign(read.event, { type: "changes_baseline_failed", error: result.error });
  }
}

/** Enters a `changes` step: the Run goes on once the engine has read what changed since its baseline. */
export function openChanges(change: RunChange, step: ChangesStepDef): undefined {
  change.projectReads.push({
    kind: "changes",
    baseline: step.since,
    maxDiffBytes: step.maxDiffBytes ?? CHANGES_DIFF_BYTES.default,
  });
  return undefined;
}

/** Writes what changed into the stage state and follows `changed` or `unchanged`; a failure fails the Run. */
export function changesRead(change: RunChange, baseline: string, result: ReadResult<ChangesSince>): void {
  const step = change.step as ChangesStepDef;
  if (!result.ok) {
    change.fail(
      "TOOL_FAILED",
      `the changes since the ${
        baseline === "run" ? "Run's start" : `${baseline}'s start`
      } could not be read: ` +
        result.error.message,
    );
    return;
  }
  const { files, diff, cutBytes } = result.value;
  change.record("changes_read", { baseline, files: files.length, cutBytes, ...keptChanges(result.value) });
  if (!change.writeOrFail(step.resultTo, { files, diff, cutBytes })) return;
  change.advance(files.length ? "changed" : "unchanged");
}

/** How many changed files a `changes_read` event names; the count in `files` is always whole. */
export const TIMELINE_CHANGED_FILES = 200;
/** How much of the diff a `changes_read` event keeps, in bytes (the state keeps the step's whole bound). */
export const TIMELINE_CHANGES_DIFF_BYTES = 16 * 1024;

/**
 * The part of what changed that the timeline keeps: the state holds only the current item's changes, so a
 * list's earlier items are shown (Studio's board) from here.
 */
function keptChanges(changes: ChangesSince) {
  const kept = bounded(changes.diff, TIMELINE_CHANGES_DIFF_BYTES);
  return {
    changed: changes.files.slice(0, TIMELINE_CHANGED_FILES).map(({ path, status }) => ({ path, status })),
    diff: kept.diff,
    diffCutBytes: kept.cutBytes + changes.cutBytes,
  };
}

/**
 * Reads what `change` queued, in order, through `changes`, handing each answer back until the change needs
 * nothing more. A baseline never marked reads as a failure saying so; `log` gets the kind of an unclassified
 * failure, whose message the Run does not keep.
 */
export async function readProjectFor(
  change: RunChange,
  changes: ProjectChanges,
  log: (event: Record<string, unknown>) => void,
): Promise<void> {
  const attempt = async <T>(read: () => Promise<T>): Promise<ReadResult<T>> => {
    try {
      return { ok: true, value: await read() };
    } catch (error) {
      if (!(error instanceof WeftError)) {
        log({ event: "project_read_failed", runId: change.run.runId, ...errorKind(error) });
      }
      return { ok: false, error: errorPayload(error) };
    }
  };
  for (let read = change.projectReads.shift(); read; read = change.projectReads.shift()) {
    if (read.kind === "mark") {
      baselineMarked(change, read, await attempt(() => changes.mark()));
      continue;
    }
    const mark = change.run.baselines?.[read.baseline];
    const result: ReadResult<ChangesSince> = mark === undefined
      ? { ok: false, error: errorPayload(new WeftError("TOOL_FAILED", "the files were not recorded then")) }
      : await attempt(() => changes.since(mark, read.maxDiffBytes));
    changesRead(change, read.baseline, result);
  }
}
