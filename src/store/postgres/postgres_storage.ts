/**
 * The engine's {@linkcode Storage} over a team's PostgreSQL database: the one place that puts the database
 * and its stores together. Units of one service still take turns (the engine relies on that, as on SQLite);
 * what other services change meanwhile is caught by each Run's revision check and by row locks.
 *
 * @module
 */
import type { Storage, StorageUnit } from "../../engine/storage.ts";
import type { RunState } from "../../engine/run_state.ts";
import { unitQueue } from "../unit_queue.ts";
import type { TeamDatabase } from "./connection_target.ts";
import { type PgSql, PostgresDatabase } from "./postgres_database.ts";
import { PostgresArtifactStore } from "./postgres_artifact_store.ts";
import { PostgresDefinitionStore } from "./postgres_definition_store.ts";
import { PostgresPublicationStore } from "./postgres_publication_store.ts";
import { PostgresRunStore } from "./postgres_run_store.ts";

/** Connects to, migrates and confirms the project of a team database, as storage. */
export async function openPostgresStorage(target: TeamDatabase): Promise<Storage & { described: string }> {
  const db = await PostgresDatabase.open(target, "service");
  const loaded = new WeakMap<RunState, number>();
  const unitOf = (sql: PgSql): StorageUnit => ({
    runs: new PostgresRunStore(sql, loaded),
    artifacts: new PostgresArtifactStore(sql),
    definitions: new PostgresDefinitionStore(sql),
    publications: new PostgresPublicationStore(sql),
  });
  const inTurn = unitQueue();
  return {
    kind: "postgresql",
    described: db.described,
    transaction: (work) => inTurn(() => db.transaction((sql) => work(unitOf(sql)))),
    read: (work) => inTurn(() => db.read((sql) => work(unitOf(sql)))),
    // The server keeps its own write-ahead log; there is no file mode to report.
    journalMode: "server",
    close: () => inTurn(() => db.close()),
  };
}
