/**
 * The items of a list stage as a Run keeps them (`RunState.list`): each item's id, data, status, attempts and
 * last verify, kept in the Run's one JSON body so a list resumes where it stood after a restart, and the
 * mapping from it to the wire {@linkcode ListView}.
 *
 * @module
 */
import type { ListItemStatus, ListItemView, ListView } from "./views.ts";
import { LIST_ITEM_STATUSES } from "./views.ts";

/** One item of a list, as the Run keeps it. */
export interface ListItemState {
  id: string;
  title: string;
  dependsOn: string[];
  /** The item as the list holds it; written at the stage's `as` pointer when the item begins. */
  data: unknown;
  status: ListItemStatus;
  attempts: number;
  verify?: ListItemView["verify"];
  reason?: string;
  decidedBy?: ListItemView["decidedBy"];
  startedAt?: string;
  endedAt?: string;
}

/** The list a Run works through: the stage it belongs to and its items, in list order. */
export interface ListState {
  stageName: string;
  items: ListItemState[];
  /** The id of the item whose steps run now. */
  current?: string;
  stopped: boolean;
  /** The Artifact revision the items came from, when they came from one; reread at each item boundary. */
  source?: { artifactId: string; revision: number };
  /** The last revision of the source that was refused, so that it is refused once, not at every boundary. */
  refusedRevision?: number;
}

/** The wire view of `list`: items in run order, counts of every status. */
export function toListView(list: ListState): ListView {
  const counts = Object.fromEntries(LIST_ITEM_STATUSES.map((status) => [status, 0])) as ListView["counts"];
  for (const item of list.items) counts[item.status]++;
  return {
    stageName: list.stageName,
    ...(list.current === undefined ? {} : { current: list.current }),
    counts,
    stopped: list.stopped,
    ...(list.source ? { source: { ...list.source } } : {}),
    items: runOrder(list.items).map((item) => ({
      id: item.id,
      title: item.title,
      status: item.status,
      attempts: item.attempts,
      dependsOn: [...item.dependsOn],
      ...(item.verify ? { verify: { ...item.verify } } : {}),
      ...(item.reason === undefined ? {} : { reason: item.reason }),
      ...(item.decidedBy ? { decidedBy: { ...item.decidedBy } } : {}),
      ...(item.startedAt === undefined ? {} : { startedAt: item.startedAt }),
      ...(item.endedAt === undefined ? {} : { endedAt: item.endedAt }),
    })),
  };
}

/**
 * The items in the order they run when nothing waits: each after the items it depends on, otherwise in list
 * order (of the items that could run next, the one listed first). Items on a dependency cycle (refused when
 * the list begins) keep their list order at the end. Linear in the items and their dependencies (with a
 * logarithm for picking the first listed): every view and every item boundary computes it.
 */
export function runOrder(items: ListItemState[]): ListItemState[] {
  const known = new Set(items.map((item) => item.id));
  // For each id, the positions of the items that wait for it; for each position, how many ids it still waits for.
  const dependents = new Map<string, number[]>();
  const waiting = items.map((item, index) => {
    const deps = new Set(item.dependsOn.filter((id) => known.has(id)));
    for (const id of deps) {
      const waiters = dependents.get(id);
      if (waiters) waiters.push(index);
      else dependents.set(id, [index]);
    }
    return deps.size;
  });
  const ready = new MinHeap();
  waiting.forEach((count, index) => count === 0 && ready.push(index));
  const placed = new Set<string>();
  const order: ListItemState[] = [];
  for (let index = ready.pop(); index !== undefined; index = ready.pop()) {
    const item = items[index];
    order.push(item);
    if (placed.has(item.id)) continue;
    placed.add(item.id);
    for (const next of dependents.get(item.id) ?? []) {
      if (--waiting[next] === 0) ready.push(next);
    }
  }
  return order.length === items.length ? order : [...order, ...items.filter((_, i) => waiting[i] > 0)];
}

/**
 * The positions ready to run, the smallest first: a binary heap, a few lines where a package would cost
 * every start of the program.
 */
class MinHeap {
  #values: number[] = [];

  push(value: number): void {
    const values = this.#values;
    let at = values.push(value) - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (values[parent] <= value) break;
      values[at] = values[parent];
      at = parent;
    }
    values[at] = value;
  }

  pop(): number | undefined {
    const values = this.#values;
    const top = values[0];
    const last = values.pop();
    if (values.length === 0 || last === undefined) return top;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= values.length) break;
      if (child + 1 < values.length && values[child + 1] < values[child]) child++;
      if (values[child] >= last) break;
      values[at] = values[child];
      at = child;
    }
    values[at] = last;
    return top;
  }
}
