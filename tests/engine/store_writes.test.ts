/**
 * What the engine keeps of a read (the `status` counts) is the store's own answer until the next write: a
 * transaction, when it begins and when it settles (committed or rolled back), makes the next call read again.
 */

import assert from "node:assert/strict";
import { StoreWrites } from "../../src/engine/store_writes.ts";
import { openMemoryStorage } from "../support/memory_storage.ts";

function counted(writes: StoreWrites) {
  let reads = 0;
  const read = writes.keep(() => writes.storage.read(() => Promise.resolve(++reads)));
  return { read, reads: () => reads };
}

Deno.test("store writes: a kept read is read again after every transaction, committed or rolled back", async () => {
  const writes = new StoreWrites(openMemoryStorage());
  const { read, reads } = counted(writes);
  assert.equal(await read(), 1);
  assert.equal(await read(), 1, "nothing written: the kept answer");
  await writes.storage.transaction(() => Promise.resolve());
  assert.equal(await read(), 2, "after a commit");
  assert.equal(await read(), 2);
  await assert.rejects(writes.storage.transaction(() => Promise.reject(new Error("rolled back"))));
  assert.equal(await read(), 3, "after a rollback too");
  assert.equal(reads(), 3);
});

Deno.test("store writes: a call made once a transaction began reads after it, and again after it settles", async () => {
  const writes = new StoreWrites(openMemoryStorage());
  const { read } = counted(writes);
  assert.equal(await read(), 1);
  const { promise: finished, resolve: finish } = Promise.withResolvers<void>();
  let committed = false;
  const open = writes.storage.transaction(() => finished.then(() => void (committed = true)));
  const during = read().then((value) => ({ value, committed }));
  const alsoDuring = read();
  finish();
  await open;
  assert.deepEqual(await during, { value: 2, committed: true }, "queued behind the transaction");
  assert.equal(await alsoDuring, 2, "the same read");
  assert.equal(await read(), 3, "read again once the transaction has settled");
  assert.equal(await read(), 3);
});

Deno.test("store writes: a failed read is not kept", async () => {
  const writes = new StoreWrites(openMemoryStorage());
  let fail = true;
  const read = writes.keep(() =>
    writes.storage.read(() => fail ? Promise.reject(new Error("busy")) : Promise.resolve("counts"))
  );
  await assert.rejects(read(), /busy/);
  fail = false;
  assert.equal(await read(), "counts");
});

Deno.test("store writes: reads kept per key are all read again after a transaction, the oldest key going first past the limit", async () => {
  const writes = new StoreWrites(openMemoryStorage());
  const reads: string[] = [];
  const read = writes.keepEach(
    (key: string) => writes.storage.read(() => Promise.resolve(`${key}${reads.push(key)}`)),
    2,
  );
  assert.equal(await read("a"), "a1");
  assert.equal(await read("b"), "b2");
  assert.equal(await read("a"), "a1", "each key keeps its own answer");
  await writes.storage.transaction(() => Promise.resolve());
  assert.equal(await read("a"), "a3", "every key is read again after a write");
  assert.equal(await read("b"), "b4");
  assert.equal(await read("c"), "c5");
  assert.equal(await read("b"), "b4");
  assert.equal(await read("a"), "a6", "past the limit the key kept longest was let go");
});

Deno.test("store writes: a read kept per key that failed is not kept", async () => {
  const writes = new StoreWrites(openMemoryStorage());
  let fail = true;
  const read = writes.keepEach(
    (key: string) =>
      writes.storage.read(() => fail ? Promise.reject(new Error("busy")) : Promise.resolve(key)),
    4,
  );
  await assert.rejects(read("a"), /busy/);
  fail = false;
  assert.equal(await read("a"), "a");
});
