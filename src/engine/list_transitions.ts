/**
 * The state machine's transitions of a list stage (a stage with `forEach`): it reads its items when it is
 * entered, begins them one after another (each after the items it depends on, from the stage's initial
 * state, with the item at `as`), counts each item's attempts, keeps its last verify, ends it when a step
 * routes to `{ "endItem": … }`, blocks the items that wait on one that did not end `done`, and ends the
 * stage `finished` (or `stopped`) when no item can begin. Items that come from an Artifact (a plan) follow
 * its latest revision at each item boundary. Everything lives in `RunState.list`, so a restart resumes the
 * list where it stood.
 *
 * @module
 */
import { WeftError } from "../errors.ts";
import { beginBaseline } from "./changes_transitions.ts";
import type { CommandResult } from "./command_step.ts";
import { getAt } from "./json_pointer.ts";
import { outputExcerpt } from "../lib/output_excerpt.ts";
import { followRevision, pendingItems, readEntries } from "./list_items.ts";
import { type ListItemState, type ListState, runOrder } from "./list_state.ts";
import type { RunChange } from "./run_change.ts";
import type { ForEachDef, ITEM_ENDS } from "./workflow/manifest.ts";

/** How much of a verify's output the list keeps as its summary: its failures first, then its counts. */
export const VERIFY_SUMMARY = { lines: 8, chars: 400 } as const;

/**
 * The latest revision of the Artifact a list's items follow, as the engine read it for this change: `data`
 * is shaped as the Run's input, and replaces the parts of it it holds.
 */
export interface LatestInput {
  revision: number;
  data: Record<string, unknown>;
}

/** Enters a list stage: reads its items and begins the first; `LIST_INVALID` fails the Run. */
export function beginList(change: RunChange): string | undefined {
  const { run } = change;
  const forEach = change.stage.forEach!;
  const fromInput = forEach.from === "input";
  const raw = getAt(fromInput ? run.input?.data : run.state, forEach.items);
  const entries = listed(change, () => readEntries(forEach, raw));
  if (!entries) return undefined;
  const source = fromInput ? run.input?.source : undefined;
  run.list = {
    stageName: run.stageName,
    items: pendingItems(entries),
    stopped: false,
    ...(source ? { source: { ...source } } : {}),
  };
  change.record("list_started", { items: entries.length, ...(source ? { source } : {}) });
  return nextItem(change);
}

/** Ends the current item with `end` and begins the next (or ends the stage). */
export function endItem(change: RunChange, end: (typeof ITEM_ENDS)[number]): string | undefined {
  const list = change.run.list!;
  const item = currentItem(list)!;
  item.status = end === "stopped" ? "failed" : end;
  item.endedAt = change.at;
  // An answer given in this very change ended it: keep how it came, for every view of the list.
  const answer = change.run.stageAnswers.at(-1);
  if (answer?.channel && answer.at === change.at) {
    item.decidedBy = { channel: answer.channel, ...(answer.by ? { by: answer.by } : {}) };
  }
  if (end === "stopped") {
    item.reason = "it stopped the list";
    list.stopped = true;
  }
  delete list.current;
  change.record("item_ended", { itemId: item.id, end, attempts: item.attempts });
  return end === "stopped" ? endList(change, "stopped") : nextItem(change);
}

/**
 * Ends the current item of a Run that ends before the item does (cancelled, or failed in a way no retry
 * resumes): `failed`, saying why, so no view shows an item running in a Run that has ended. A Run a retry
 * can resume (`RESUMABLE_FAILURES`) does not come here: the retry opens the same step of the same item, which
 * stays `running` to show where the Run will go on. The items not begun stay as they were.
 */
export function runEnded(change: RunChange, reason: string): void {
  const list = change.run.list;
  const item = list ? currentItem(list) : undefined;
  if (!list || !item) return;
  item.status = "failed";
  item.reason = reason;
  item.endedAt = change.at;
  delete list.current;
  change.record("item_ended", { itemId: item.id, end: "failed", attempts: item.attempts, reason });
}

/** Counts a new attempt of the current item when its stage's first step is entered; false when the Run failed. */
export function itemStepEntered(change: RunChange, stepName: string): boolean {
  const { stage, run } = change;
  const item = run.list && stage.forEach ? currentItem(run.list) : undefined;
  if (!item || stepName !== stage.entryStep) return true;
  item.attempts++;
  return change.writeOrFail(stage.forEach!.attemptTo, item.attempts);
}

/** Keeps a command's result as the current item's verify when the command is the list's `verifyStep`. */
export function commandEnded(change: RunChange, outcome: string, result: CommandResult): void {
  const { stage, run } = change;
  const item = run.list && stage.forEach?.verifyStep === run.stepName ? currentItem(run.list) : undefined;
  if (!item) return;
  item.verify = {
    passed: outcome === "passed",
    outcome,
    exitCode: result.exitCode,
    summary: outputExcerpt(result.stdout.text, result.stderr.text, VERIFY_SUMMARY),
    at: change.at,
  };
}

/** The item whose steps run now. */
export function currentItem(list: ListState): ListItemState | undefined {
  return list.current === undefined ? undefined : list.items.find((item) => item.id === list.current);
}

/** Begins the next item that can begin, or ends the list when none can. */
function nextItem(change: RunChange): string | undefined {
  const list = change.run.list!;
  followInput(change, list);
  blockWaiting(list);
  const status = new Map(list.items.map((item) => [item.id, item.status]));
  const next = runOrder(list.items).find((item) =>
    item.status === "pending" && item.dependsOn.every((id) => status.get(id) === "done")
  );
  return next ? beginItem(change, list, next) : endList(change, "finished");
}

/** Begins `item` afresh: the stage's initial state with the item at `as`, its own visits, its baseline. */
function beginItem(change: RunChange, list: ListState, item: ListItemState): string | undefined {
  const { run, stage } = change;
  const forEach = stage.forEach!;
  item.status = "running";
  item.startedAt = change.at;
  list.current = item.id;
  run.state = structuredClone(stage.state.initial);
  run.stageAnswers = [];
  run.stepName = stage.entryStep;
  // Budgets bound the loops of one item; each item starts with none of its stage's visits spent.
  for (const key of Object.keys(run.visits)) {
    if (key.startsWith(`${run.stageName}/`)) delete run.visits[key];
  }
  change.record("item_started", { itemId: item.id, title: item.title });
  if (!change.writeOrFail(forEach.as, item.data)) return undefined;
  if (forEach.inputTo !== undefined && !change.writeOrFail(forEach.inputTo, run.input?.data ?? null)) {
    return undefined;
  }
  beginBaseline(change, "item");
  return change.enterStep(stage.entryStep);
}

/** Ends the stage with `outcome`, saying how the items ended. */
function endList(change: RunChange, outcome: "finished" | "stopped"): string | undefined {
  const counts: Record<string, number> = {};
  for (const item of change.run.list!.items) counts[item.status] = (counts[item.status] ?? 0) + 1;
  change.record("list_ended", { outcome, counts });
  return change.endStage(outcome);
}

/**
 * Items waiting on one that ended other than `done` never begin: they are `blocked`, saying on which; an
 * item waiting on a blocked one is blocked too, however the list orders them. Each item is looked at once
 * from each of its dependencies: this runs at every item boundary.
 */
function blockWaiting(list: ListState): void {
  const byId = new Map(list.items.map((item) => [item.id, item]));
  const waiters = new Map<string, ListItemState[]>();
  for (const item of list.items) {
    if (item.status !== "pending") continue;
    for (const id of item.dependsOn) {
      const those = waiters.get(id);
      if (those) those.push(item);
      else waiters.set(id, [item]);
    }
  }
  const stuck = list.items.filter(isStuck);
  for (let dep = stuck.pop(); dep !== undefined; dep = stuck.pop()) {
    for (const item of waiters.get(dep.id) ?? []) {
      if (item.status !== "pending") continue;
      const first = item.dependsOn.map((id) => byId.get(id)).find(isStuck) ?? dep;
      item.status = "blocked";
      item.reason = `it depends on "${first.id}", which is ${first.status}`;
      stuck.push(item);
    }
  }
}

/** Whether the items waiting on `item` can never begin. */
function isStuck(item: ListItemState | undefined): item is ListItemState {
  return item?.status === "failed" || item?.status === "skipped" || item?.status === "blocked";
}

/**
 * Follows a newer revision of the Artifact the items came from, read by the engine for this change: items
 * not begun take their new form, new ones are added, dropped ones skipped, the order is the new one. A
 * revision whose items cannot be worked through is refused on the timeline, and the items stay as they were.
 */
function followInput(change: RunChange, list: ListState): void {
  const latest = change.latestInput;
  const { run } = change;
  if (!list.source || !latest || latest.revision <= list.source.revision) return;
  if (latest.revision <= (list.refusedRevision ?? 0)) return;
  const forEach = change.stage.forEach as ForEachDef;
  const revision = latest.revision;
  try {
    const entries = readEntries(forEach, getAt(latest.data, forEach.items));
    const before = new Set(list.items.map((item) => item.id));
    list.items = followRevision(list.items, entries, `revision ${revision} of its list no longer holds it`);
    list.source.revision = revision;
    if (run.input) {
      const data = {
        ...(run.input.data as Record<string, unknown>),
        ...(latest.data as Record<string, unknown>),
      };
      run.input = { ...run.input, data, source: { ...list.source } };
    }
    const listed = new Set(entries.map((entry) => entry.id));
    change.record("list_revised", {
      source: { ...list.source },
      added: entries.filter((entry) => !before.has(entry.id)).map((entry) => entry.id),
      dropped: [...before].filter((id) => !listed.has(id)),
    });
  } catch (error) {
    if (!(error instanceof WeftError)) throw error;
    list.refusedRevision = revision;
    change.record("list_revision_refused", {
      artifactId: list.source.artifactId,
      revision,
      reason: error.message,
    });
  }
}

/** The entries `read` gives, or undefined once a `LIST_INVALID` has failed the Run. */
function listed<T>(change: RunChange, read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof WeftError) || error.code !== "LIST_INVALID") throw error;
    change.fail("LIST_INVALID", error.message);
    return undefined;
  }
}
