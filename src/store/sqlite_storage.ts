/**
 * The engine's {@linkcode Storage} over one SQLite database, the embedded default, and the one place that puts
 * the database and its stores together.
 *
 * One connection serves every unit of work, so units wait their turn in one queue: a unit that awaited
 * between two statements would otherwise let another unit's statements join its open transaction, or read
 * what it has not committed. node:sqlite answers each statement at once, so the queue costs a few
 * microtasks per operation.
 *
 * @module
 */
import type { Storage, StorageUnit } from "../engine/storage.ts";
import { ArtifactStore } from "./artifact_store.ts";
import { Database } from "./database.ts";
import { DefinitionStore } from "./definition_store.ts";
import { PublicationStore } from "./publication_store.ts";
import { RunStore } from "./run_store.ts";
import { unitQueue } from "./unit_queue.ts";

/** Opens (creating and migrating when needed) the database at `path`, or an in-memory one, as storage. */
export function openSqliteStorage(path: string | ":memory:"): Storage {
  const db = Database.open(path);
  const unit: StorageUnit = {
    runs: new RunStore(db),
    artifacts: new ArtifactStore(db),
    definitions: new DefinitionStore(db),
    publications: new PublicationStore(db),
  };
  const inTurn = unitQueue();
  return {
    kind: "sqlite",
    transaction: (work) => inTurn(() => db.transaction(() => work(unit))),
    read: (work) => inTurn(() => work(unit)),
    // Set when the database is opened, so read once: `status` needs no unit of work for it.
    journalMode: db.journalMode(),
    close: () => inTurn(() => Promise.resolve(db.close())),
  };
}
