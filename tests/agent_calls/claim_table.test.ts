/**
 * The claim table and receipt book in-process, where a tool call can be held open by a controllable promise:
 * this proves the BUSY rules without relying on how two HTTP requests happen to interleave.
 */
import assert from "node:assert/strict";
import { Engine } from "../../src/engine/engine.ts";
import { WeftError } from "../../src/errors.ts";
import { type AgentCallEngine, ClaimTable, RETAINED_ENDED_RUNS } from "../../src/agent_calls/claim_table.ts";
import { MAX_RECEIPTS, ReceiptBook, ReceiptBudget } from "../../src/agent_calls/receipts.ts";
import { MemoryProject } from "../support/memory_project.ts";
import { openMemoryStorage } from "../support/memory_storage.ts";
import { EMBEDDED_WORKFLOWS } from "../../src/workflows/embedded.ts";

/** Asserts that `action` throws (or rejects with) a `WeftError` of `code`. */
async function rejectsWith(action: () => unknown, code: string): Promise<WeftError> {
  try {
    await action();
  } catch (error) {
    assert.ok(error instanceof WeftError, `expected a WeftError, got ${error}`);
    assert.equal(error.code, code, error.message);
    return error;
  }
  assert.fail(`expected ${code}`);
}

/**
 * An in-memory engine whose agent tools wait for `release()` before they run. `release()` waits until a tool
 * call has reached the gate, since a call passes the claim table's checks before it gets there.
 */
async function gatedEngine(receiptLimits?: { taskBytes: number; totalBytes: number }) {
  const project = new MemoryProject();
  const engine = await Engine.open({
    projectFiles: project.files,
    projectTree: project.tree,
    projectChanges: project.changes,
    storage: openMemoryStorage(),
    embedded: EMBEDDED_WORKFLOWS,
  });
  let gate = Promise.withResolvers<void>();
  let entered = Promise.withResolvers<void>();
  const gated: AgentCallEngine = {
    getRun: (runId) => engine.getRun(runId),
    agentCall: (runId, callId) => engine.agentCall(runId, callId),
    claimAgentCall: (options) => engine.claimAgentCall(options),
    runAgentTool: async (options) => {
      entered.resolve();
      await gate.promise;
      return await engine.runAgentTool(options);
    },
    readAgentAsset: (options) => engine.readAgentAsset(options),
    completeAgentCall: (options) => engine.completeAgentCall(options),
    failAgentCall: (options) => engine.failAgentCall(options),
    onRunChanged: (listener) => engine.onRunChanged(listener),
  };
  return {
    engine,
    claims: new ClaimTable(gated, receiptLimits),
    async release() {
      await entered.promise;
      entered = Promise.withResolvers<void>();
      gate.resolve();
      gate = Promise.withResolvers<void>();
    },
    async close() {
      await engine.close();
    },
  };
}

Deno.test("a second tool call, a completion and a failure while a tool runs are BUSY", async () => {
  const { engine, claims, release, close } = await gatedEngine();
  try {
    const run = await engine.startRun({
      flowName: "intent",
      intent: "add CSV export",
      source: "agent_ide",
      agentExecutor: "mcp_client",
    });
    const ref = { runId: run.runId, callId: run.pendingAgentCall!.id };
    const { ownerToken } = await claims.claim({ ...ref, claimId: "agent-1" });
    const owner = { ...ref, ownerToken };

    const first = claims.callTool(owner, { toolCallId: "t1", toolId: "get_context", input: {} });
    const busy = await rejectsWith(
      () => claims.callTool(owner, { toolCallId: "t2", toolId: "list_files", input: {} }),
      "BUSY",
    );
    assert.equal(busy.retryable, true);
    await rejectsWith(
      () => claims.callTool(owner, { toolCallId: "t1", toolId: "get_context", input: {} }),
      "BUSY",
    );
    await rejectsWith(() => claims.complete(owner, { outcome: "ready" }), "BUSY");
    await rejectsWith(() => claims.fail(owner, "giving up"), "BUSY");
    assert.deepEqual((await claims.describe(ref)).receipts, [{
      toolCallId: "t1",
      toolId: "get_context",
      status: "running",
    }]);

    await release();
    assert.equal((await first as { intent: string }).intent, "add CSV export");
    assert.deepEqual((await claims.describe(ref)).receipts, [
      { toolCallId: "t1", toolId: "get_context", status: "succeeded" },
    ]);
    // The refused call left no receipt, so the agent retries it with the same toolCallId.
    const retried = claims.callTool(owner, { toolCallId: "t2", toolId: "list_files", input: {} });
    await release();
    assert.deepEqual(await retried, { files: [], truncated: false });
    assert.equal((await engine.getRun(run.runId)).status, "waiting");
  } finally {
    await close();
  }
});

Deno.test("a completion is retained for identical retries until the Run's next agent call is claimed", async () => {
  const { engine, claims, release, close } = await gatedEngine();
  try {
    const run = await engine.startRun({
      flowName: "intent",
      intent: "add CSV export",
      source: "agent_ide",
      agentExecutor: "mcp_client",
    });
    const ref = { runId: run.runId, callId: run.pendingAgentCall!.id };
    const owner = { ...ref, ...(await claims.claim({ ...ref, claimId: "agent-1" })) };
    const submitted = claims.callTool(owner, {
      toolCallId: "q1",
      toolId: "submit_questions",
      input: { value: [{ id: "scope", question: "Which reports?" }] },
    });
    await release();
    await submitted;

    const asking = await claims.complete(owner, '{ "outcome": "clarification_required" }');
    assert.equal(asking.pendingAction?.kind, "user_ask_questions");
    assert.deepEqual(await claims.complete(owner, { outcome: "clarification_required" }), asking);
    await rejectsWith(() => claims.complete(owner, { outcome: "ready" }), "CONFLICT");
    await rejectsWith(() => claims.fail(owner, "no"), "CONFLICT");
    await rejectsWith(
      () => claims.callTool(owner, { toolCallId: "q2", toolId: "get_context", input: {} }),
      "CONFLICT",
    );

    const next = await engine.answerAsk({
      runId: run.runId,
      actionId: asking.pendingAction!.id,
      answer: [{ questionId: "scope", isSkipped: false, answer: "All" }],
      source: "cli",
    });
    // Publishing the next call does not end the retention; claiming it does.
    assert.deepEqual(await claims.complete(owner, { outcome: "clarification_required" }), asking);
    await claims.claim({ runId: run.runId, callId: next.pendingAgentCall!.id, claimId: "agent-1" });
    await rejectsWith(() => claims.complete(owner, { outcome: "clarification_required" }), "CONFLICT");
  } finally {
    await close();
  }
});

Deno.test("the receipt book replays, refuses changed input and stops at its cap", async () => {
  const book = new ReceiptBook();
  let runs = 0;
  const execute = () => Promise.resolve(++runs);
  assert.equal(await book.run({ toolCallId: "a", toolId: "t", input: { x: 1, y: [2] } }, execute), 1);
  // Key order is not part of the input's identity.
  assert.equal(await book.run({ toolCallId: "a", toolId: "t", input: { y: [2], x: 1 } }, execute), 1);
  await rejectsWith(
    () => book.run({ toolCallId: "a", toolId: "t", input: { x: 2, y: [2] } }, execute),
    "CONFLICT",
  );
  await rejectsWith(
    () => book.run({ toolCallId: "a", toolId: "u", input: { x: 1, y: [2] } }, execute),
    "CONFLICT",
  );

  const failing = () => Promise.reject(new WeftError("TOOL_FAILED", "no such file"));
  await rejectsWith(() => book.run({ toolCallId: "f", toolId: "t", input: {} }, failing), "TOOL_FAILED");
  await rejectsWith(() => book.run({ toolCallId: "f", toolId: "t", input: {} }, execute), "TOOL_FAILED");

  for (let i = book.summaries().length; i < MAX_RECEIPTS; i++) {
    await book.run({ toolCallId: `n${i}`, toolId: "t", input: {} }, execute);
  }
  assert.equal(book.summaries().length, MAX_RECEIPTS);
  const full = await rejectsWith(
    () => book.run({ toolCallId: "one-more", toolId: "t", input: {} }, execute),
    "BUSY",
  );
  assert.match(full.message, /complete_agent_call/);
  assert.equal(await book.run({ toolCallId: "a", toolId: "t", input: { x: 1, y: [2] } }, execute), 1);
  assert.equal(runs, MAX_RECEIPTS - 1);
});

Deno.test("finished work is released: ended Runs keep their last settlement only up to a bound", async () => {
  const { engine, claims, close } = await gatedEngine();
  try {
    const ended: { runId: string; callId: string; ownerToken: string }[] = [];
    for (let i = 0; i < RETAINED_ENDED_RUNS + 44; i++) {
      const run = await engine.startRun({
        flowName: "intent",
        intent: `intent ${i}`,
        source: "agent_ide",
        agentExecutor: "mcp_client",
      });
      const ref = { runId: run.runId, callId: run.pendingAgentCall!.id };
      const { ownerToken } = await claims.claim({ ...ref, claimId: `claim-${i}` });
      await claims.fail({ ...ref, ownerToken }, "gave up");
      ended.push({ ...ref, ownerToken });
    }
    assert.equal(claims.size, RETAINED_ENDED_RUNS);
    const latest = ended.at(-1)!;
    assert.equal(
      (await claims.fail(latest, "gave up")).status,
      "failed",
      "a recent identical retry is still answered",
    );

    const cancelled = await engine.startRun({
      flowName: "intent",
      intent: "to cancel",
      source: "agent_ide",
      agentExecutor: "mcp_client",
    });
    await claims.claim({ runId: cancelled.runId, callId: cancelled.pendingAgentCall!.id, claimId: "c" });
    assert.equal(claims.size, RETAINED_ENDED_RUNS + 1);
    await engine.cancelRun(cancelled.runId, "agent_ide");
    assert.equal(claims.size, RETAINED_ENDED_RUNS, "a cancelled Run's claim is dropped at once");
  } finally {
    await close();
  }
});

Deno.test("receipts hold a bounded amount of output per task and in total, with an error that says so", async () => {
  const budget = new ReceiptBudget({ taskBytes: 1000, totalBytes: 1500 });
  const first = new ReceiptBook(budget);
  const second = new ReceiptBook(budget);
  const output = () => Promise.resolve("x".repeat(398)); // 400 bytes as JSON
  for (let i = 0; i < 3; i++) await first.run({ toolCallId: `a${i}`, toolId: "t", input: {} }, output);
  assert.equal(first.bytes, 1200);
  const full = await rejectsWith(
    () => first.run({ toolCallId: "a3", toolId: "t", input: {} }, output),
    "BUSY",
  );
  assert.match(full.message, /the most one task may \(0\.0 MiB\); finish with complete_agent_call/);
  // A retry of a held receipt is still answered: the bound refuses new work, never what was kept.
  assert.equal(await first.run({ toolCallId: "a0", toolId: "t", input: {} }, output), "x".repeat(398));
  await second.run({ toolCallId: "b0", toolId: "t", input: {} }, output);
  const service = await rejectsWith(
    () => second.run({ toolCallId: "b1", toolId: "t", input: {} }, output),
    "BUSY",
  );
  assert.match(service.message, /for open agent tasks, the most it may .*retry this call after other tasks/);
  first.release();
  assert.equal(budget.held, 400);
  await second.run({ toolCallId: "b1", toolId: "t", input: {} }, output);
  assert.equal(budget.held, 800);
});

Deno.test("the claim table gives receipt memory back when calls settle, Runs end or claims are replaced", async () => {
  const { engine, claims, release, close } = await gatedEngine({ taskBytes: 1 << 20, totalBytes: 4 << 20 });
  try {
    const refs = [];
    for (let i = 0; i < 3; i++) {
      const run = await engine.startRun({
        flowName: "intent",
        intent: `memory ${i}`,
        source: "agent_ide",
        agentExecutor: "mcp_client",
      });
      const ref = { runId: run.runId, callId: run.pendingAgentCall!.id };
      const { ownerToken } = await claims.claim({ ...ref, claimId: `claim-${i}` });
      const pending = claims.callTool({ ...ref, ownerToken }, {
        toolCallId: "t",
        toolId: "get_context",
        input: {},
      });
      await release();
      await pending;
      refs.push({ ...ref, ownerToken });
    }
    assert.ok(claims.receiptBudget.held > 0);
    await claims.fail(refs[0], "gave up");
    await engine.cancelRun(refs[1].runId, "agent_ide");
    const one = claims.receiptBudget.held;
    assert.ok(one > 0, "the third task still holds its receipt");
    await claims.fail(refs[2], "gave up");
    assert.equal(claims.receiptBudget.held, 0);
  } finally {
    await close();
  }
});

Deno.test("two claimants racing for one agent call: one holds it, the other gets CONFLICT", async () => {
  const { engine, claims, close } = await gatedEngine();
  try {
    const run = await engine.startRun({
      flowName: "intent",
      intent: "add CSV export",
      source: "agent_ide",
      agentExecutor: "mcp_client",
    });
    const ref = { runId: run.runId, callId: run.pendingAgentCall!.id };
    const outcomes = await Promise.allSettled([
      claims.claim({ ...ref, claimId: "agent-a" }),
      claims.claim({ ...ref, claimId: "agent-b" }),
    ]);
    const won = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const lost = outcomes.filter((outcome) => outcome.status === "rejected");
    assert.equal(won.length, 1, "exactly one claimant holds the call");
    assert.equal(lost.length, 1);
    const error = (lost[0] as PromiseRejectedResult).reason;
    assert.ok(error instanceof WeftError && error.code === "CONFLICT", String(error));
    // The winner's token still works: the loser replaced nothing.
    const { ownerToken } = (won[0] as PromiseFulfilledResult<{ ownerToken: string }>).value;
    const winner = outcomes[0].status === "fulfilled" ? "agent-a" : "agent-b";
    assert.equal((await claims.claim({ ...ref, claimId: winner })).ownerToken, ownerToken);
  } finally {
    await close();
  }
});

Deno.test("an identical completion sent while the first is recorded gets the same Run; a different one is BUSY", async () => {
  const { engine, claims, close } = await gatedEngine();
  try {
    const run = await engine.startRun({
      flowName: "intent",
      intent: "add CSV export",
      source: "agent_ide",
      agentExecutor: "mcp_client",
    });
    const ref = { runId: run.runId, callId: run.pendingAgentCall!.id };
    const owner = { ...ref, ...(await claims.claim({ ...ref, claimId: "agent-1" })) };
    const result = { outcome: "clarification_required" };
    const first = claims.complete(owner, result);
    const again = claims.complete(owner, { ...result });
    const other = claims.complete(owner, { outcome: "ready" });
    await rejectsWith(() => other, "BUSY");
    const [a, b] = await Promise.all([first, again]);
    assert.deepEqual(a, b);
    const completed = (await engine.getRunTimeline(run.runId))
      .filter((event) => event.type === "agent_call_completed" && event.callId === ref.callId);
    assert.equal(completed.length, 1, "the completion was recorded once");
  } finally {
    await close();
  }
});
