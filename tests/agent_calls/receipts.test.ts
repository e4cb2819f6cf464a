/**
 * The receipt book of one agent task, driven directly with a tool call that is still running: calls run one
 * at a time (BUSY while one runs), a retry gets the retained outcome, and a reused id with other input is a
 * CONFLICT.
 */

import assert from "node:assert/strict";
import { MAX_RECEIPTS, ReceiptBook } from "../../src/agent_calls/receipts.ts";
import { WeftError } from "../../src/errors.ts";
import { invalid } from "../../src/errors.ts";

function code(expected: string) {
  return (error: unknown) => error instanceof WeftError && error.code === expected;
}

Deno.test("BUSY: while a tool call runs, another call and a retry of the running one are BUSY and leave no receipt", async () => {
  const book = new ReceiptBook();
  const slow = Promise.withResolvers<unknown>();
  let executions = 0;
  const running = book.run({ toolCallId: "c1", toolId: "read_file", input: { path: "a" } }, () => {
    executions++;
    return slow.promise;
  });
  assert.equal(book.inFlight, true);

  await assert.rejects(
    book.run({ toolCallId: "c2", toolId: "read_file", input: { path: "b" } }, () => Promise.resolve("b")),
    (error) =>
      code("BUSY")(error) && (error as WeftError).retryable && /"c1".*still running/.test(String(error)),
  );
  await assert.rejects(
    book.run({ toolCallId: "c1", toolId: "read_file", input: { path: "a" } }, () => Promise.resolve("again")),
    code("BUSY"),
  );
  assert.deepEqual(book.summaries(), [{ toolCallId: "c1", toolId: "read_file", status: "running" }]);

  slow.resolve("content of a");
  assert.equal(await running, "content of a");
  assert.equal(book.inFlight, false);
  // The BUSY call left no receipt: the same toolCallId now simply runs.
  assert.equal(
    await book.run(
      { toolCallId: "c2", toolId: "read_file", input: { path: "b" } },
      () => Promise.resolve("b"),
    ),
    "b",
  );
  assert.equal(executions, 1, "the running call was executed once, never twice");
});

Deno.test("receipts: a retry replays the outcome without running again; other input under the same id is CONFLICT", async () => {
  const book = new ReceiptBook();
  let executions = 0;
  const execute = () => {
    executions++;
    return Promise.resolve({ n: executions });
  };
  const request = { toolCallId: "c1", toolId: "get_context", input: { b: 1, a: [1, 2] } };
  assert.deepEqual(await book.run(request, execute), { n: 1 });
  // The same input with keys in another order is the same call.
  assert.deepEqual(await book.run({ ...request, input: { a: [1, 2], b: 1 } }, execute), { n: 1 });
  assert.equal(executions, 1);
  await assert.rejects(book.run({ ...request, input: { b: 2, a: [1, 2] } }, execute), code("CONFLICT"));
  await assert.rejects(book.run({ ...request, toolId: "list_files" }, execute), code("CONFLICT"));

  const failing = { toolCallId: "c2", toolId: "read_file", input: {} };
  await assert.rejects(
    book.run(failing, () => Promise.reject(invalid("no such file"))),
    code("INVALID_REQUEST"),
  );
  await assert.rejects(book.run(failing, execute), code("INVALID_REQUEST"), "a failure is replayed too");
  assert.equal(executions, 1);

  const crashing = { toolCallId: "c3", toolId: "read_file", input: {} };
  await assert.rejects(book.run(crashing, () => Promise.reject(new Error("boom"))), code("INTERNAL"));
  assert.deepEqual(await book.run(crashing, execute), { n: 2 }, "a retryable failure leaves no receipt");
});

Deno.test("receipts: past the cap a new call is BUSY with advice, while replays still answer", async () => {
  const book = new ReceiptBook();
  for (let i = 0; i < MAX_RECEIPTS; i++) {
    await book.run({ toolCallId: `r${i}`, toolId: "context", input: {} }, () => Promise.resolve(i));
  }
  await assert.rejects(
    book.run({ toolCallId: "one-more", toolId: "context", input: {} }, () => Promise.resolve(0)),
    (error) => code("BUSY")(error) && /complete_agent_call/.test(String(error)),
  );
  assert.equal(
    await book.run({ toolCallId: "r7", toolId: "context", input: {} }, () => Promise.resolve(-1)),
    7,
  );
});
