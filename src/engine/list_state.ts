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
      ...(item.startedAt === undefined ? {} : { startedAt: item.startedAt }),
      ...(item.endedAt === undefined ? {} : { endedAt: item.endedAt }),
    })),
  };
}

/**
 * The items in the order they run when nothing waits: each after the items it depends on, otherwise in list
 * order. Items on a dependency cycle (refused when the list begins) keep their list order at the end.
 */
export function runOrder(items: ListItemState[]): ListItemState[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  const placed = new Set<string>();
  const order: ListItemState[] = [];
  let progress = true;
  while (progress && order.length < items.length) {
    progress = false;
    for (const item of items) {
      if (placed.has(item.id)) continue;
      if (item.dependsOn.every((id) => placed.has(id) || !byId.has(id))) {
        placed.add(item.id);
        order.push(item);
        progress = true;
        break;
      }
    }
  }
  return [...order, ...items.filter((item) => !placed.has(item.id))];
}
