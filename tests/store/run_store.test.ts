/**
 * Saving a Run: its indexed columns (status, version) always follow its body, and a change that keeps them
 * writes only the Run's own page, not their index pages, to the WAL of the commit.
 */
import assert from "node:assert/strict";
import { Database } from "../../src/store/database.ts";
import { RunStore } from "../../src/store/run_store.ts";
import { storedRun } from "./support.ts";

/** Opens a database on disk (WAL) with `count` Runs saved, and checkpointed so that its WAL is empty. */
async function storeWithRuns(dir: string, count: number): Promise<{ db: Database; runs: RunStore }> {
  const db = Database.open(`${dir}/weft.db`);
  const runs = new RunStore(db);
  await db.transaction(async () => {
    for (let i = 0; i < count; i++) await runs.insert(storedRun(`run_${i}`));
  });
  db.get("PRAGMA wal_checkpoint(TRUNCATE)");
  return { db, runs };
}

/** How many pages the WAL holds now. */
function walFrames(db: Database): number {
  return Number(db.get<{ log: number }>("PRAGMA wal_checkpoint(PASSIVE)")!.log);
}

Deno.test("a saved Run's status and version columns follow its body, and the status counts with them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "weft-run-store-" });
  try {
    const { db, runs } = await storeWithRuns(dir, 3);
    try {
      const changed = storedRun("run_1", { status: "completed", version: "v2" });
      await db.transaction(() => runs.update(changed));
      const kept = storedRun("run_2", { intent: "changed" });
      await db.transaction(() => runs.update(kept));
      const row = (id: string) =>
        db.get<{ status: string; version: string }>("SELECT status, version FROM runs WHERE id = ?", id);
      assert.deepEqual({ ...row("run_1") }, { status: "completed", version: "v2" });
      assert.deepEqual({ ...row("run_2") }, { status: "waiting", version: "v1" });
      assert.equal((await runs.find("run_2"))?.intent, "changed");
      assert.deepEqual((await runs.list({ status: "completed" })).runs.map((saved) => saved.runId), [
        "run_1",
      ]);
      const counts = await runs.countByStatus();
      assert.equal(counts.completed, 1);
      assert.equal(counts.waiting, 2);
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a change that keeps a Run's status and version commits one page, not their index pages too", async () => {
  const dir = await Deno.makeTempDir({ prefix: "weft-run-store-" });
  try {
    const { db, runs } = await storeWithRuns(dir, 200);
    try {
      assert.equal(walFrames(db), 0);
      await db.transaction(() => runs.update(storedRun("run_7", { state: { claimed: true } })));
      assert.equal(walFrames(db), 1);
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
