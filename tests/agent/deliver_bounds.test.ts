/**
 * `deliver` over plans as long as a repository can make them, against a real `weft serve`: a project
 * workflow commits a stage named `plan` whose tasks form one chain, each depending on the one before,
 * listed last first; given to `deliver` from the IDE's endpoint, a chain of 10,000 tasks is refused with
 * `LIST_INVALID` naming the bound while the service goes on answering, and a chain as long as the bound is
 * worked from its first task.
 */
import assert from "node:assert/strict";
import { MAX_LIST_ITEMS } from "../../src/engine/list_items.ts";
import type { RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient, withServedProject } from "../support/service.ts";

/** A project workflow that commits, as its stage `plan`, a chain of `count` tasks listed last first. */
function chainedPlanFiles(name: string, count: number): Record<string, string> {
  const tasks = Array.from({ length: count }, (_, i) => ({
    id: `T${i}`,
    title: `Task ${i}`,
    ...(i ? { dependsOn: [`T${i - 1}`] } : {}),
  })).reverse();
  const manifest = {
    name,
    title: "A long plan",
    description: "Commits a plan whose tasks each wait for the one before.",
    entryStage: "plan",
    stages: {
      plan: {
        state: { schema: { type: "object" }, initial: { summary: "A chain.", tasks } },
        entryStep: "commit",
        steps: { commit: { kind: "commit", data: "", routes: { committed: { endStage: "done" } } } },
        routes: { done: { end: "completed" } },
      },
    },
  };
  // Compact: the workflow file stays under the loader's 1 MiB.
  return { [`workflows/${name}/workflow.json`]: JSON.stringify(manifest) };
}

Deno.test("deliver: a chain of 10,000 tasks is refused naming the list bound while the service answers; one at the bound is worked", async () => {
  const files = {
    ...chainedPlanFiles("over", 10_000),
    ...chainedPlanFiles("at-bound", MAX_LIST_ITEMS),
  };
  await withServedProject({ files }, async (served) => {
    const ide = await mcpClient(served, "/mcp");
    try {
      const flow = async (flowName: string, intent: string) =>
        (await call<{ run: RunView }>(ide, "flow", { flowName, intent })).run;

      const over = await flow("over", "a long plan");
      assert.equal(over.status, "completed", JSON.stringify(over.lastError));
      const refused = await flow("deliver", over.runId);
      assert.equal(refused.status, "failed");
      assert.deepEqual(refused.lastError, {
        code: "LIST_INVALID",
        message: `the list holds 10000 items; a list holds at most ${MAX_LIST_ITEMS}`,
        retryable: false,
      });

      // The service goes on: it answers, and works a plan at the bound.
      const again = await call<{ run: RunView }>(ide, "get_run", { runId: refused.runId });
      assert.equal(again.run.lastError?.code, "LIST_INVALID");
      const atBound = await flow("at-bound", "a plan at the bound");
      const run = await flow("deliver", atBound.runId);
      assert.equal(run.status, "waiting", JSON.stringify(run.lastError));
      assert.equal(run.list?.current, "T0", "the task every other one waits for, though listed last");
      assert.equal(run.pendingAgentCall?.agentId, "implementer");
      assert.equal(run.list?.items.length, MAX_LIST_ITEMS);
      assert.equal(run.list?.counts.pending, MAX_LIST_ITEMS - 1);
      assert.deepEqual(run.list?.items.slice(0, 3).map((item) => item.id), ["T0", "T1", "T2"]);
    } finally {
      await closeClient(ide);
    }
  });
});
