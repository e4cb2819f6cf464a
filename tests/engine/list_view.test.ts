import assert from "node:assert/strict";
import { type ListItemState, type ListState, toListView } from "../../src/engine/list_state.ts";
import { ListViewSchema } from "../../src/engine/views.ts";

function item(id: string, dependsOn: string[] = [], extra: Partial<ListItemState> = {}): ListItemState {
  return { id, title: `Task ${id}`, dependsOn, data: { id }, status: "pending", attempts: 0, ...extra };
}

Deno.test("a list's view puts items after what they depend on, counts every status and matches its schema", () => {
  const list: ListState = {
    stageName: "tasks",
    current: "a",
    stopped: false,
    items: [
      item("c", ["a"]),
      item("a", [], { status: "running", attempts: 2, startedAt: "2026-01-01T00:00:00.000Z" }),
      item("b", [], { status: "done", attempts: 1 }),
    ],
  };
  const view = toListView(list);
  assert.deepEqual(view.items.map((entry) => entry.id), ["a", "c", "b"]);
  assert.deepEqual(view.counts, { pending: 1, running: 1, done: 1, failed: 0, skipped: 0, blocked: 0 });
  assert.equal(view.current, "a");
  assert.equal(view.items[0].attempts, 2);
  assert.equal("data" in view.items[0], false, "the item's data is not part of the view");
  assert.equal(ListViewSchema.safeParse(view).success, true);
});
