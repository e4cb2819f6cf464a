/**
 * Reading a list stage's items out of the JSON that holds them (the stage state, or a Run's input such as a
 * plan), and following a new revision of that input: pure functions over data, so the state machine decides
 * with them and the tests read them alone. A list that cannot be worked through (not an array, more items
 * than {@linkcode MAX_LIST_ITEMS}, an id missing or repeated, a dependency unknown or circular) is refused
 * with `LIST_INVALID`, naming the item or the bound.
 *
 * @module
 */
import { WeftError } from "../errors.ts";
import { getAt } from "./json_pointer.ts";
import type { ListItemState } from "./list_state.ts";
import type { ForEachDef } from "./workflow/manifest.ts";

/** A title is shown on one line; longer ones are cut. */
const TITLE_CHARS = 200;

/**
 * The most items a list holds. A Run keeps and rewrites its whole list on every change, and its views carry
 * every item: at 3,000 items each task's change already costs about a second of the service's time and a
 * megabyte for each reader, so a list of tens of thousands would stall the service rather than be worked.
 */
export const MAX_LIST_ITEMS = 5_000;

/** An item as the list holds it, before the Run tracks it. */
export interface ListEntry {
  id: string;
  title: string;
  dependsOn: string[];
  data: unknown;
}

/** The items of the array `raw`, read with the pointers of `forEach`; `LIST_INVALID` when unusable. */
export function readEntries(forEach: ForEachDef, raw: unknown): ListEntry[] {
  if (!Array.isArray(raw)) {
    throw listInvalid(`the items at ${forEach.items || "/"} are not an array`);
  }
  checkSize(raw.length);
  const entries = raw.map((data, index) => {
    const id = getAt(data, forEach.id ?? "/id");
    if (typeof id !== "string" || id.trim() === "") {
      throw listInvalid(`item ${index} has no id (a non-empty string at ${forEach.id ?? "/id"})`);
    }
    const title = getAt(data, forEach.title ?? "/title");
    const dependsOn = forEach.dependsOn === undefined ? [] : getAt(data, forEach.dependsOn) ?? [];
    if (!Array.isArray(dependsOn) || !dependsOn.every((dep) => typeof dep === "string")) {
      throw listInvalid(`item "${id}": its dependencies at ${forEach.dependsOn} are not a list of ids`);
    }
    return {
      id,
      title: typeof title === "string" && title.trim() ? title.slice(0, TITLE_CHARS) : id,
      dependsOn: [...new Set(dependsOn)],
      data,
    };
  });
  checkGraph(entries);
  return entries;
}

/** New items, all pending. */
export function pendingItems(entries: ListEntry[]): ListItemState[] {
  return entries.map((entry) => ({ ...entry, status: "pending", attempts: 0 }));
}

/**
 * The items after the list's input changed to `entries`: an item not begun takes its new data, title and
 * dependencies, a new one is added pending, one no longer listed is skipped with `reason`, and the order is
 * the new one (items no longer listed after the rest). A blocked item never began either, so it is pending
 * again under its new dependencies (the list blocks it again if they still cannot be met). Items that began
 * keep what they were. `LIST_INVALID` when the result cannot be worked through, or when the new list keeps
 * none of the items.
 */
export function followRevision(
  items: ListItemState[],
  entries: ListEntry[],
  reason: string,
): ListItemState[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  // Every Run of a workflow commits to the same Artifact: one that keeps none of the items is another list
  // (another intent's plan, say), not a revision of this one.
  if (items.length && !entries.some((entry) => byId.has(entry.id))) {
    throw listInvalid(
      "it keeps none of the items being worked through, so it is another list, not a revision",
    );
  }
  const listed = new Set(entries.map((entry) => entry.id));
  const next = entries.map((entry): ListItemState => {
    const kept = byId.get(entry.id);
    if (kept === undefined) return { ...entry, status: "pending", attempts: 0 };
    if (!notBegun(kept)) return kept;
    const { reason: _blockedBecause, ...rest } = kept;
    return { ...rest, ...entry, status: "pending" };
  });
  const dropped = items.filter((item) => !listed.has(item.id)).map((item): ListItemState =>
    notBegun(item) ? { ...item, status: "skipped", reason } : item
  );
  const merged = [...next, ...dropped];
  checkSize(merged.length);
  checkGraph(merged);
  return merged;
}

/** Whether `item` never began: pending, or blocked by what it depended on. */
function notBegun(item: ListItemState): boolean {
  return item.status === "pending" || item.status === "blocked";
}

/** At most {@linkcode MAX_LIST_ITEMS} items. */
function checkSize(count: number): void {
  if (count > MAX_LIST_ITEMS) {
    throw listInvalid(`the list holds ${count} items; a list holds at most ${MAX_LIST_ITEMS}`);
  }
}

/** Every id unique, every dependency a listed id, and no item waiting on itself through others. */
function checkGraph(entries: Pick<ListEntry, "id" | "dependsOn">[]): void {
  const ids = new Set<string>();
  for (const { id } of entries) {
    if (ids.has(id)) throw listInvalid(`the id "${id}" is used by more than one item`);
    ids.add(id);
  }
  for (const { id, dependsOn } of entries) {
    const unknown = dependsOn.find((dep) => !ids.has(dep));
    if (unknown !== undefined) {
      throw listInvalid(`item "${id}" depends on "${unknown}", which is not in the list`);
    }
  }
  // Depth first without recursion: a chain of thousands of items would overflow the call stack. `path` is
  // the chain of items being visited, each with how many of its dependencies were visited so far.
  const deps = new Map(entries.map((entry) => [entry.id, entry.dependsOn]));
  const state = new Map<string, "visiting" | "done">();
  for (const { id: root } of entries) {
    if (state.has(root)) continue;
    state.set(root, "visiting");
    const path: { id: string; next: number }[] = [{ id: root, next: 0 }];
    while (path.length) {
      const top = path[path.length - 1];
      const dep = deps.get(top.id)![top.next++];
      if (dep === undefined) {
        state.set(top.id, "done");
        path.pop();
      } else if (state.get(dep) === "visiting") {
        const cycle = [...path.slice(path.findIndex((step) => step.id === dep)).map((step) => step.id), dep];
        throw listInvalid(`the items depend on each other in a circle: ${cycle.join(" → ")}`);
      } else if (!state.has(dep)) {
        state.set(dep, "visiting");
        path.push({ id: dep, next: 0 });
      }
    }
  }
}

function listInvalid(message: string): WeftError {
  return new WeftError("LIST_INVALID", message);
}
