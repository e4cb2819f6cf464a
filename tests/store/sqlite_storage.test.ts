/**
 * The SQLite storage runs units of work one after another: a unit that awaits between its statements never
 * lets another unit's statements into its transaction, nor lets a read see what it has not committed.
 */
import assert from "node:assert/strict";
import { openSqliteStorage } from "../../src/store/sqlite_storage.ts";
import { storedRun } from "./support.ts";

Deno.test("storage units never interleave: a read waits for the open transaction, a rollback keeps the others", async () => {
  const storage = openSqliteStorage(":memory:");
  try {
    const gate = Promise.withResolvers<void>();
    const inside = Promise.withResolvers<void>();
    const first = storage.transaction(async (unit) => {
      await unit.runs.insert(storedRun("run_a"));
      inside.resolve();
      await gate.promise;
      await unit.runs.insert(storedRun("run_b"));
      throw new Error("the first unit gives up");
    });
    await inside.promise;
    const seen = storage.read((unit) => unit.runs.find("run_a"));
    const second = storage.transaction((unit) => unit.runs.insert(storedRun("run_c")));
    gate.resolve();
    await assert.rejects(first, /gives up/);
    assert.equal(await seen, undefined, "the read saw nothing the rolled-back unit wrote");
    await second;
    const kept = await storage.read(async (
      unit,
    ) => [await unit.runs.find("run_a"), await unit.runs.find("run_b"), await unit.runs.find("run_c")]);
    assert.deepEqual(kept.map((found) => found?.runId), [undefined, undefined, "run_c"]);
  } finally {
    await storage.close();
  }
});
