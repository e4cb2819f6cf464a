/**
 * A Run's tasks as clients show them (`weft://runs/{runId}/tasks`, `weft tasks --json`): the items of the list
 * it works through, with just enough of the Run to say whose they are, and the fingerprint that decides
 * whether a change of the Run changed them.
 *
 * @module
 */

import type { ListView, RunView } from "./views.ts";

/** The body of a Run's tasks resource; `list` is null until the Run enters a list stage. */
export interface RunTasks {
  runId: string;
  flowName: string;
  status: RunView["status"];
  list: ListView | null;
}

/** The tasks resource of `run`. */
export function runTasks(run: RunView): RunTasks {
  return { runId: run.runId, flowName: run.flowName, status: run.status, list: run.list ?? null };
}

/**
 * What a subscriber of the tasks resource would see change: the list and the Run's status. Every step of a
 * Run changes the Run, but most leave its tasks as they were; comparing this keeps those from notifying.
 */
export function tasksFingerprint(run: RunView): string {
  return JSON.stringify(runTasks(run));
}
