/**
 * The counts `status` reports are kept by triggers rather than counted on every call: they must equal what a
 * full count says, in a store migrated with rows already in it and after every kind of change.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { Database } from "../../src/store/database.ts";
import { MIGRATIONS } from "../../src/store/migrations.ts";
import { RunStore } from "../../src/store/run_store.ts";
import { ArtifactStore } from "../../src/store/artifact_store.ts";

const STATUSES = ["running", "waiting", "completed", "failed", "cancelled"];

function insertRun(db: Database, id: string, status: string): void {
  db.run(
    "INSERT INTO runs (id, flow_name, status, body, created_at, updated_at) VALUES (?, 'f', ?, '{}', 'now', 'now')",
    id,
    status,
  );
}

function insertRecordAndArtifact(db: Database, n: number): void {
  db.run(
    `INSERT INTO records (id, run_id, flow_name, stage_name, artifact_id, revision, data, answers, created_at)
     VALUES (?, 'run', 'f', ?, ?, 1, '{}', '[]', 'now')`,
    `rec${n}`,
    `s${n}`,
    `art${n}`,
  );
  db.run(
    `INSERT INTO artifacts (id, flow_name, stage_name, revision, run_id, record_id, data, created_at, updated_at)
     VALUES (?, 'f', ?, 1, 'run', ?, '{}', 'now', 'now')`,
    `art${n}`,
    `s${n}`,
    `rec${n}`,
  );
}

async function assertCountsTrue(db: Database): Promise<void> {
  const full = Object.fromEntries(STATUSES.map((status) => [status, 0]));
  for (
    const row of db.all<{ status: string; n: number }>(
      "SELECT status, COUNT(*) AS n FROM runs GROUP BY status",
    )
  ) {
    full[row.status] = Number(row.n);
  }
  assert.deepEqual(await new RunStore(db).countByStatus(), full);
  const artifacts = Number(db.get<{ n: number }>("SELECT COUNT(*) AS n FROM artifacts")!.n);
  const records = Number(db.get<{ n: number }>("SELECT COUNT(*) AS n FROM records")!.n);
  assert.deepEqual(await new ArtifactStore(db).counts(), { artifacts, records });
}

Deno.test("kept counts equal full counts after migration, inserts, status changes and deletes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "weft-counts-" });
  const path = `${dir}/weft.db`;
  try {
    // A store of the first schema version, with rows in it, as an older weft left it.
    const old = new DatabaseSync(path);
    old.exec(MIGRATIONS[0]);
    old.exec("PRAGMA user_version = 1");
    old.exec(
      "INSERT INTO runs (id, flow_name, status, body, created_at, updated_at) VALUES " +
        "('a', 'f', 'completed', '{}', 'now', 'now'), ('b', 'f', 'waiting', '{}', 'now', 'now')",
    );
    old.close();

    const db = Database.open(path);
    try {
      await assertCountsTrue(db);
      for (let i = 0; i < 30; i++) insertRun(db, `r${i}`, STATUSES[i % STATUSES.length]);
      for (let i = 0; i < 7; i++) insertRecordAndArtifact(db, i);
      await assertCountsTrue(db);
      db.run("UPDATE runs SET status = 'cancelled' WHERE status IN ('running', 'waiting')");
      db.run("UPDATE runs SET status = 'completed', body = '{\"x\":1}' WHERE status = 'completed'");
      db.run("UPDATE runs SET body = '{}' WHERE id = 'a'");
      await assertCountsTrue(db);
      db.run("DELETE FROM artifacts WHERE id = 'art3'");
      db.run("DELETE FROM records WHERE id = 'rec3'");
      db.run("DELETE FROM runs WHERE id = 'r4'");
      await assertCountsTrue(db);
      // A transaction that rolls back leaves the counts as they were.
      await assert.rejects(() =>
        db.transaction(() => {
          insertRun(db, "gone", "running");
          return Promise.reject(new Error("abort"));
        })
      );
      await assertCountsTrue(db);
    } finally {
      db.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
