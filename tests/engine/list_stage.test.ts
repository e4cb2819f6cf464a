/**
 * The list construct over the in-memory storage and project: a list stage works through its items in
 * dependency order, each from the stage's initial state with its own attempts, blocks the items waiting on
 * one that did not end `done`, stops when an item stops it, resumes from the stored Run, and refuses a list
 * it cannot work through with `LIST_INVALID`.
 */
import assert from "node:assert/strict";
import type { Engine } from "../../src/engine/engine.ts";
import type { RunView } from "../../src/engine/views.ts";
import { MemoryDatabase } from "../support/memory_storage.ts";
import { listCounts, listFlow, type ListFlowItem } from "../support/list_workflows.ts";
import { openEngine } from "./support.ts";

async function start(engine: Engine): Promise<RunView> {
  return await engine.startRun({
    flowName: "review",
    intent: "work through",
    source: "cli",
    agentExecutor: "service",
  });
}

/** Answers the item's question with `end`. */
async function end(engine: Engine, run: RunView, answer: string): Promise<RunView> {
  assert.equal(run.status, "waiting", JSON.stringify(run.lastError));
  return await engine.answerAsk({
    runId: run.runId,
    actionId: run.pendingAction!.id,
    answer: [{ questionId: "end", isSkipped: false, answer }],
    source: "cli",
  });
}

const statuses = (run: RunView) => Object.fromEntries(run.list!.items.map((item) => [item.id, item.status]));

const THREE: ListFlowItem[] = [
  { id: "b", title: "Second", dependsOn: ["a"] },
  { id: "a", title: "First" },
  { id: "c", title: "Third" },
];

Deno.test("list: items run one after another in dependency order, each with its own attempts, and the stage ends finished", async () => {
  const engine = await openEngine({ manifest: listFlow(THREE) });
  try {
    let run = await start(engine);
    assert.equal(run.list?.current, "a", "b waits for a");
    assert.deepEqual(run.list?.items.map((item) => item.id), ["a", "b", "c"]);
    assert.deepEqual(run.list?.counts, listCounts({ pending: 2, running: 1 }));
    run = await end(engine, run, "again");
    assert.equal(run.list?.current, "a");
    assert.equal(run.list?.items[0].attempts, 2, "routing back to the first step is a new attempt");
    run = await end(engine, run, "done");
    assert.equal(run.list?.current, "b");
    assert.equal(run.list?.items[1].attempts, 1);
    run = await end(engine, run, "skip");
    assert.equal(run.list?.current, "c");
    run = await end(engine, run, "done");
    assert.equal(run.status, "completed");
    assert.deepEqual(statuses(run), { a: "done", b: "skipped", c: "done" });
    assert.equal(run.list?.current, undefined);
    assert.equal(run.list?.stopped, false);
    const types = (await engine.getRunTimeline(run.runId)).map((event) => event.type);
    assert.deepEqual(types.filter((type) => type.startsWith("item_") || type.startsWith("list_")), [
      "list_started",
      "item_started",
      "item_ended",
      "item_started",
      "item_ended",
      "item_started",
      "item_ended",
      "list_ended",
    ]);
    const summary = await engine.getArtifact({ flowName: "review", stageName: "summary" });
    assert.deepEqual(summary?.data, { finished: true }, "the stage routed `finished` to the next stage");
  } finally {
    await engine.close();
  }
});

Deno.test("list: each item begins from the initial state with the item at `as` and its attempt at `attemptTo`", async () => {
  const database = new MemoryDatabase();
  const engine = await openEngine({ manifest: listFlow(THREE), database });
  const stored = (runId: string) =>
    JSON.parse(database.tables.runs[runId].body) as { state: Record<string, unknown> };
  try {
    let run = await start(engine);
    assert.deepEqual(stored(run.runId).state.item, { id: "a", title: "First" });
    assert.equal(stored(run.runId).state.attempt, 1);
    run = await end(engine, run, "again");
    assert.equal(stored(run.runId).state.attempt, 2);
    run = await end(engine, run, "done");
    const state = stored(run.runId).state;
    assert.deepEqual(state.item, { id: "b", title: "Second", dependsOn: ["a"] });
    assert.equal(state.attempt, 1);
    assert.equal(state.answers, undefined, "the first item's answers are not in the second's state");
  } finally {
    await engine.close();
  }
});

Deno.test("list: an item that fails blocks the items that depend on it, and the others still run", async () => {
  const items: ListFlowItem[] = [
    { id: "a" },
    { id: "b", dependsOn: ["a"] },
    { id: "c", dependsOn: ["b"] },
    { id: "d" },
  ];
  const engine = await openEngine({ manifest: listFlow(items) });
  try {
    let run = await start(engine);
    run = await end(engine, run, "fail");
    assert.equal(run.list?.current, "d");
    assert.deepEqual(statuses(run), { a: "failed", b: "blocked", c: "blocked", d: "running" });
    const blocked = run.list!.items.find((item) => item.id === "c")!;
    assert.equal(blocked.reason, 'it depends on "b", which is blocked');
    assert.equal(blocked.title, "c", "an item without a title shows its id");
    run = await end(engine, run, "done");
    assert.equal(run.status, "completed");
    assert.deepEqual(run.list?.counts, {
      pending: 0,
      running: 0,
      done: 1,
      failed: 1,
      skipped: 0,
      blocked: 2,
    });
  } finally {
    await engine.close();
  }
});

Deno.test("list: an item that fails blocks every item that waits on it however far, listed in any order", async () => {
  // Listed against dependency order: the last item to be blocked comes first in the list.
  const items: ListFlowItem[] = [
    { id: "d", dependsOn: ["c"] },
    { id: "c", dependsOn: ["b"] },
    { id: "b", dependsOn: ["a"] },
    { id: "a" },
    { id: "e" },
  ];
  const engine = await openEngine({ manifest: listFlow(items) });
  try {
    let run = await start(engine);
    assert.equal(run.list?.current, "a");
    run = await end(engine, run, "fail");
    assert.equal(run.list?.current, "e", "nothing that waits on a begins");
    assert.deepEqual(statuses(run), { a: "failed", b: "blocked", c: "blocked", d: "blocked", e: "running" });
    const reasons = Object.fromEntries(run.list!.items.map((item) => [item.id, item.reason]));
    assert.equal(reasons.d, 'it depends on "c", which is blocked');
    assert.equal(reasons.b, 'it depends on "a", which is failed');
    run = await end(engine, run, "done");
    assert.equal(run.status, "completed");
    assert.deepEqual(run.list?.counts, listCounts({ done: 1, failed: 1, blocked: 3 }));
  } finally {
    await engine.close();
  }
});

Deno.test("list: an item that stops the list ends the stage `stopped`; the items left stay pending", async () => {
  const engine = await openEngine({ manifest: listFlow(THREE) });
  try {
    let run = await start(engine);
    run = await end(engine, run, "stop");
    assert.equal(run.status, "completed");
    assert.equal(run.list?.stopped, true);
    assert.deepEqual(statuses(run), { a: "failed", b: "pending", c: "pending" });
    assert.equal(await engine.getArtifact({ flowName: "review", stageName: "summary" }), null);
  } finally {
    await engine.close();
  }
});

Deno.test("list: a Run reopened from its store resumes at the item and attempt it stood at", async () => {
  const database = new MemoryDatabase();
  let engine = await openEngine({ manifest: listFlow(THREE), database });
  let run = await start(engine);
  run = await end(engine, run, "done");
  run = await end(engine, run, "again");
  await engine.close();
  engine = await openEngine({ manifest: listFlow(THREE), database });
  try {
    run = await engine.getRun(run.runId);
    assert.equal(run.status, "waiting", "a Run waiting for a person is not interrupted");
    assert.equal(run.list?.current, "b");
    assert.equal(run.list?.items[1].attempts, 2);
    run = await end(engine, run, "done");
    run = await end(engine, run, "done");
    assert.equal(run.status, "completed");
    assert.deepEqual(statuses(run), { a: "done", b: "done", c: "done" });
  } finally {
    await engine.close();
  }
});

for (
  const [what, items, message] of [
    ["not an array", "nope", /the items at \/items are not an array/],
    ["an item without an id", [{ id: "a" }, { title: "x" }], /item 1 has no id/],
    ["a repeated id", [{ id: "a" }, { id: "a" }], /the id "a" is used by more than one item/],
    [
      "an unknown dependency",
      [{ id: "a", dependsOn: ["z"] }],
      /item "a" depends on "z", which is not in the list/,
    ],
    [
      "a circle of dependencies",
      [{ id: "a", dependsOn: ["c"] }, { id: "b", dependsOn: ["a"] }, { id: "c", dependsOn: ["b"] }],
      /in a circle: a → c → b → a/,
    ],
    ["dependencies that are not ids", [{ id: "a", dependsOn: "b" }], /not a list of ids/],
  ] as const
) {
  Deno.test(`list: ${what} fails the Run with LIST_INVALID, naming it`, async () => {
    const engine = await openEngine({ manifest: listFlow(items as unknown as ListFlowItem[]) });
    try {
      const run = await start(engine);
      assert.equal(run.status, "failed");
      assert.equal(run.lastError?.code, "LIST_INVALID");
      assert.match(run.lastError!.message, message);
    } finally {
      await engine.close();
    }
  });
}

Deno.test("list: a step's budget bounds the loops of one item, not of the whole list", async () => {
  const manifest = listFlow(THREE);
  Object.assign(manifest.stages.items.steps.work, { budget: { maxVisits: 2 } });
  const engine = await openEngine({ manifest });
  try {
    let run = await start(engine);
    for (let i = 0; i < 3; i++) {
      run = await end(engine, run, "again");
      run = await end(engine, run, "done");
    }
    assert.equal(run.status, "completed", JSON.stringify(run.lastError));
    assert.deepEqual(run.list?.items.map((item) => item.attempts), [2, 2, 2]);
  } finally {
    await engine.close();
  }
});

Deno.test("list: an empty list ends the stage `finished` at once, and the Run goes on", async () => {
  const engine = await openEngine({ manifest: listFlow([]) });
  try {
    const run = await start(engine);
    assert.equal(run.status, "completed", JSON.stringify(run.lastError));
    assert.deepEqual(run.list?.items, []);
    const summary = await engine.getArtifact({ flowName: "review", stageName: "summary" });
    assert.deepEqual(summary?.data, { finished: true });
  } finally {
    await engine.close();
  }
});

Deno.test("list: a Run amid its items moves to a new version only where its stage is still a list stage", async () => {
  const database = new MemoryDatabase();
  const first = await openEngine({ manifest: listFlow(THREE), database });
  const run = await start(first);
  await first.close();
  const flat = listFlow(THREE) as unknown as { stages: Record<string, Record<string, unknown>> };
  const { forEach: _, ...stage } = flat.stages.items;
  flat.stages = {
    items: {
      ...stage,
      steps: {
        work: {
          kind: "ask",
          questions: [{ id: "end", question: "How did it end?" }],
          answersTo: "/answers",
          routes: { answered: { endStage: "done" } },
        },
      },
      routes: { done: { end: "completed" } },
    },
  };
  const unlisted = await openEngine({ manifest: flat, database });
  try {
    await assert.rejects(
      unlisted.moveRun(run.runId, "cli"),
      /it works through the items of stage "items", which is no list stage in the new version/,
    );
  } finally {
    await unlisted.close();
  }
  const retitled = await openEngine({ manifest: { ...listFlow(THREE), title: "List, v2" }, database });
  try {
    const moved = await retitled.moveRun(run.runId, "cli");
    assert.notEqual(moved.version, run.version);
    assert.equal(moved.list?.current, "a");
  } finally {
    await retitled.close();
  }
});

Deno.test("list: cancelling a Run ends its running item `failed`, saying so; the items not begun stay as they were", async () => {
  const engine = await openEngine({ manifest: listFlow(THREE) });
  try {
    let run = await start(engine);
    run = await end(engine, run, "done");
    assert.equal(run.list?.current, "b");
    run = await engine.cancelRun(run.runId, "cli");
    assert.equal(run.status, "cancelled");
    assert.deepEqual(statuses(run), { a: "done", b: "failed", c: "pending" });
    assert.equal(run.list?.current, undefined, "no item runs in a cancelled Run");
    assert.deepEqual(run.list?.counts, listCounts({ done: 1, failed: 1, pending: 1 }));
    const b = run.list!.items[1];
    assert.equal(b.reason, "the Run was cancelled");
    assert.ok(b.endedAt);
    const events = await engine.getRunTimeline(run.runId);
    const last = events.slice(-2);
    assert.deepEqual(last.map((event) => event.type), ["run_cancelled", "item_ended"]);
    assert.equal(last[1].itemId, "b");
    assert.equal(last[1].end, "failed");
    assert.equal(last[1].reason, "the Run was cancelled");
  } finally {
    await engine.close();
  }
});

Deno.test("list: a Run that fails for good ends its running item `failed` with the Run's error", async () => {
  const manifest = listFlow(THREE);
  Object.assign(manifest.stages.items.steps.work, { budget: { maxVisits: 1 } });
  const engine = await openEngine({ manifest });
  try {
    let run = await start(engine);
    run = await end(engine, run, "again");
    assert.equal(run.status, "failed");
    assert.equal(run.lastError?.code, "BUDGET_EXCEEDED");
    assert.deepEqual(statuses(run), { a: "failed", b: "pending", c: "pending" });
    assert.equal(run.list?.current, undefined);
    assert.match(run.list!.items[0].reason!, /^the Run failed \(BUDGET_EXCEEDED\): step items\/work/);
  } finally {
    await engine.close();
  }
});

Deno.test("list: a Run interrupted amid an item keeps it `running`, and a retry goes on with that item", async () => {
  const manifest = listFlow(THREE);
  const work = {
    kind: "agent",
    agentId: "worker",
    instructions: "work.md",
    output: {
      schema: {
        type: "object",
        required: ["outcome"],
        properties: { outcome: { type: "string", enum: ["done", "stop"] } },
      },
    },
    routes: { done: { endItem: "done" }, stop: { endItem: "stopped" } },
  };
  // The item's only step is an agent call, which a restart interrupts.
  Object.assign(manifest.stages.items, { steps: { work } });
  const fixture = { manifest, manifestFiles: { "work.md": "# Work\n" }, database: new MemoryDatabase() };
  let engine = await openEngine(fixture);
  let run = await engine.startRun({
    flowName: "review",
    intent: "work through",
    source: "agent_ide",
    agentExecutor: "mcp_client",
  });
  const first = run.pendingAgentCall!.id;
  await engine.claimAgentCall({ runId: run.runId, callId: first, claimant: "mcp_client" });
  await engine.close();
  engine = await openEngine(fixture);
  try {
    run = await engine.getRun(run.runId);
    assert.equal(run.status, "failed");
    assert.equal(run.lastError?.code, "RUN_INTERRUPTED");
    assert.equal(run.list?.current, "a", "the item the retry resumes");
    assert.deepEqual(statuses(run), { a: "running", b: "pending", c: "pending" });
    run = await engine.retryRun(run.runId, "cli");
    assert.equal(run.status, "waiting");
    assert.equal(run.list?.current, "a");
    assert.equal(run.list?.items[0].attempts, 1, "a retry is not a new attempt");
    const callId = run.pendingAgentCall!.id;
    assert.notEqual(callId, first);
    await engine.claimAgentCall({ runId: run.runId, callId, claimant: "mcp_client" });
    run = await engine.completeAgentCall({ runId: run.runId, callId, result: { outcome: "done" } });
    assert.equal(run.list?.current, "b");
    assert.deepEqual(statuses(run), { a: "done", b: "running", c: "pending" });

    // A model that did not answer fails the Run in a way a retry resumes: b still shows where it goes on.
    run = await engine.failAgentCall({
      runId: run.runId,
      callId: run.pendingAgentCall!.id,
      message: "the model server did not answer",
      code: "MODEL_UNAVAILABLE",
    });
    assert.equal(run.lastError?.code, "MODEL_UNAVAILABLE");
    assert.equal(run.list?.current, "b");
    assert.deepEqual(statuses(run), { a: "done", b: "running", c: "pending" });
    run = await engine.retryRun(run.runId, "cli");
    assert.equal(run.status, "waiting");
    assert.equal(run.list?.current, "b");
  } finally {
    await engine.close();
  }
});
