/**
 * Workflows with a list stage, for the tests of lists: `listFlow` works through items held in its initial
 * state, and at each item asks the person how it ended (`done`, `skip`, `fail`, `stop`, or `again` for a
 * new attempt), so a test drives every way an item can end without an agent. Its parts (the pointers, the
 * state schema, the question and the checks on its answer) are exported for the other list fixtures
 * (`task_board.ts`).
 *
 * @module
 */

import type { ListView } from "../../src/engine/views.ts";

/** A list view's `counts`: the statuses named in `some`, every other status 0. */
export function listCounts(some: Partial<ListView["counts"]>): ListView["counts"] {
  return { pending: 0, running: 0, done: 0, failed: 0, skipped: 0, blocked: 0, ...some };
}

/** One item of `listFlow`'s initial list. */
export interface ListFlowItem {
  id?: unknown;
  title?: string;
  dependsOn?: unknown;
}

/** The pointers of a list stage's `forEach` these fixtures share: items, dependencies, item and attempt. */
export const LIST_POINTERS = { items: "/items", dependsOn: "/dependsOn", as: "/item", attemptTo: "/attempt" };

/** The state schema of a list stage at {@linkcode LIST_POINTERS}, with the person's answers and `extra`. */
export function listStateSchema(extra: Record<string, unknown> = {}) {
  return {
    type: "object",
    properties: {
      items: {},
      item: { type: "object" },
      attempt: { type: "integer" },
      ...extra,
      answers: { type: "array" },
    },
  };
}

/** The step that asks the person how the item ended; its answer goes to `/answers`, then to step `done`. */
export function askHowItEnded() {
  return {
    kind: "ask",
    questions: [{ id: "end", question: "How did it end?" }],
    answersTo: "/answers",
    routes: { answered: "done" },
  };
}

/** A check that routes to `valid` when the person answered `answer`, else to `invalid`. */
export function answered(answer: string, valid: unknown, invalid: unknown) {
  return {
    kind: "check",
    rules: [{ at: "/answers/0/answer", schema: { const: answer } }],
    routes: { valid, invalid },
  };
}

/** The manifest (named `review`, as the engine fixture embeds it) of a list stage over `items`. */
export function listFlow(items: ListFlowItem[], forEach: Record<string, unknown> = {}) {
  return {
    name: "review",
    title: "List",
    description: "Works through a list of items, asking how each ended.",
    entryStage: "items",
    stages: {
      items: {
        forEach: { ...LIST_POINTERS, ...forEach },
        state: { schema: listStateSchema(), initial: { items } },
        entryStep: "work",
        steps: {
          work: askHowItEnded(),
          done: answered("done", { endItem: "done" }, "skip"),
          skip: answered("skip", { endItem: "skipped" }, "stop"),
          stop: answered("stop", { endItem: "stopped" }, "again"),
          again: answered("again", "work", { endItem: "failed" }),
        },
        routes: { finished: "summary", stopped: { end: "completed" } },
      },
      summary: {
        state: { schema: { type: "object" }, initial: { finished: true } },
        entryStep: "commit",
        steps: { commit: { kind: "commit", data: "", routes: { committed: { endStage: "done" } } } },
        routes: { done: { end: "completed" } },
      },
    },
  };
}
