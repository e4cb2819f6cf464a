/**
 * Workflows with a list stage, for the tests of lists: `listFlow` works through items held in its initial
 * state, and at each item asks the person how it ended (`done`, `skip`, `fail`, `stop`, or `again` for a
 * new attempt), so a test drives every way an item can end without an agent.
 *
 * @module
 */

/** One item of `listFlow`'s initial list. */
export interface ListFlowItem {
  id?: unknown;
  title?: string;
  dependsOn?: unknown;
}

const pick = (next: string, answer: string, otherwise: unknown) => ({
  kind: "check",
  rules: [{ at: "/answers/0/answer", schema: { const: answer } }],
  routes: { valid: next === "" ? otherwise : next, invalid: otherwise },
});

/** The manifest (named `review`, as the engine fixture embeds it) of a list stage over `items`. */
export function listFlow(items: ListFlowItem[], forEach: Record<string, unknown> = {}) {
  return {
    name: "review",
    title: "List",
    description: "Works through a list of items, asking how each ended.",
    entryStage: "items",
    stages: {
      items: {
        forEach: { items: "/items", dependsOn: "/dependsOn", as: "/item", attemptTo: "/attempt", ...forEach },
        state: {
          schema: {
            type: "object",
            properties: {
              items: {},
              item: { type: "object" },
              attempt: { type: "integer" },
              answers: { type: "array" },
            },
          },
          initial: { items },
        },
        entryStep: "work",
        steps: {
          work: {
            kind: "ask",
            questions: [{ id: "end", question: "How did it end?" }],
            answersTo: "/answers",
            routes: { answered: "done" },
          },
          done: { ...pick("", "done", "skip"), routes: { valid: { endItem: "done" }, invalid: "skip" } },
          skip: { ...pick("", "skip", "stop"), routes: { valid: { endItem: "skipped" }, invalid: "stop" } },
          stop: { ...pick("", "stop", "again"), routes: { valid: { endItem: "stopped" }, invalid: "again" } },
          again: { ...pick("", "again", ""), routes: { valid: "work", invalid: { endItem: "failed" } } },
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
