/**
 * The order of a list's items and the checks of its dependencies at the list's size bound: the run order is
 * the one a scan from the top gives (the first listed item whose dependencies are placed, again and again),
 * whatever the list's shape; a chain of dependencies as long as the bound is read and ordered, one item over
 * the bound is refused naming it, and a circle at the end of a long chain is still named.
 */
import assert from "node:assert/strict";
import { WeftError } from "../../src/errors.ts";
import { followRevision, MAX_LIST_ITEMS, pendingItems, readEntries } from "../../src/engine/list_items.ts";
import { type ListItemState, runOrder } from "../../src/engine/list_state.ts";
import type { ForEachDef } from "../../src/engine/workflow/manifest.ts";

const FOR_EACH = { items: "/items", dependsOn: "/dependsOn", as: "/item" } as ForEachDef;

function item(id: string, dependsOn: string[] = []): ListItemState {
  return { id, title: id, dependsOn, data: { id }, status: "pending", attempts: 0 };
}

/**
 * The documented order, computed the plain way: place the first listed item whose dependencies are all
 * placed (or not in the list), then look again from the top; items never placed follow in list order.
 */
function scannedOrder(items: ListItemState[]): string[] {
  const ids = new Set(items.map((entry) => entry.id));
  const placed = new Set<string>();
  const order: string[] = [];
  for (let progress = true; progress;) {
    progress = false;
    const next = items.find((entry) =>
      !placed.has(entry.id) && entry.dependsOn.every((id) => placed.has(id) || !ids.has(id))
    );
    if (next) {
      placed.add(next.id);
      order.push(next.id);
      progress = true;
    }
  }
  return [...order, ...items.filter((entry) => !placed.has(entry.id)).map((entry) => entry.id)];
}

/** A small deterministic generator, so a failing shape can be reproduced from its seed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** A chain of `count` items, each depending on the one before, listed last first. */
function reversedChain(count: number): { id: string; dependsOn?: string[] }[] {
  return Array.from(
    { length: count },
    (_, i) => ({ id: `T${i}`, ...(i ? { dependsOn: [`T${i - 1}`] } : {}) }),
  )
    .reverse();
}

Deno.test("list order: items follow what they depend on, otherwise the list's order, for every shape of list", () => {
  for (let seed = 1; seed <= 300; seed++) {
    const next = random(seed);
    const count = 1 + Math.floor(next() * 12);
    const ids = Array.from({ length: count }, (_, i) => `i${i}`);
    // Dependencies on any item (circles included, and ids not in the list), in any order.
    const items = ids.map((id) =>
      item(id, ids.filter(() => next() < 0.2).concat(next() < 0.1 ? ["unknown"] : []))
    );
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [items[i], items[j]] = [items[j], items[i]];
    }
    assert.deepEqual(runOrder(items).map((entry) => entry.id), scannedOrder(items), `seed ${seed}`);
  }
});

Deno.test("list order: a list at the bound, a chain listed last first, is read and ordered first to last", () => {
  const entries = readEntries(FOR_EACH, reversedChain(MAX_LIST_ITEMS));
  assert.equal(entries.length, MAX_LIST_ITEMS);
  const order = runOrder(pendingItems(entries)).map((entry) => entry.id);
  assert.equal(order[0], "T0");
  assert.equal(order[MAX_LIST_ITEMS - 1], `T${MAX_LIST_ITEMS - 1}`);
  assert.deepEqual(order, order.toSorted((a, b) => Number(a.slice(1)) - Number(b.slice(1))));
});

Deno.test("list order: one item more than the bound is refused with LIST_INVALID naming the bound", () => {
  assert.throws(
    () => readEntries(FOR_EACH, reversedChain(MAX_LIST_ITEMS + 1)),
    (error) =>
      error instanceof WeftError && error.code === "LIST_INVALID" &&
      error.message === `the list holds ${MAX_LIST_ITEMS + 1} items; a list holds at most ${MAX_LIST_ITEMS}`,
  );
  // A revision whose new items, with the done ones it drops and keeps, would pass the bound is refused too.
  const done = (id: string): ListItemState => ({ ...item(id), status: "done" });
  const entries = readEntries(FOR_EACH, [{ id: "old" }, ...reversedChain(MAX_LIST_ITEMS - 1)]);
  assert.equal(followRevision([done("old")], entries, "dropped").length, MAX_LIST_ITEMS);
  assert.throws(
    () => followRevision([done("old"), done("gone")], entries, "dropped"),
    (error) =>
      error instanceof WeftError && error.code === "LIST_INVALID" &&
      error.message === `the list holds ${MAX_LIST_ITEMS + 1} items; a list holds at most ${MAX_LIST_ITEMS}`,
  );
});

Deno.test("list order: a circle at the end of a chain as long as the bound is named", () => {
  const chain = reversedChain(MAX_LIST_ITEMS);
  // The first of the chain now waits for the last: every item is on the circle.
  chain[MAX_LIST_ITEMS - 1] = { id: "T0", dependsOn: [`T${MAX_LIST_ITEMS - 1}`] };
  assert.throws(
    () => readEntries(FOR_EACH, chain),
    (error) =>
      error instanceof WeftError && error.code === "LIST_INVALID" &&
      error.message.startsWith(
        `the items depend on each other in a circle: T${MAX_LIST_ITEMS - 1} → T${MAX_LIST_ITEMS - 2} → `,
      ) &&
      error.message.endsWith(` → T1 → T0 → T${MAX_LIST_ITEMS - 1}`),
  );
});
