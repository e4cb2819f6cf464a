/**
 * The engine's {@linkcode Storage} over one SQLite database: the only implementation, and the one place that
 * puts the database and its stores together.
 *
 * @module
 */
import type { Storage } from "../engine/storage.ts";
import { ArtifactStore } from "./artifact_store.ts";
import { Database } from "./database.ts";
import { DefinitionStore } from "./definition_store.ts";
import { RunStore } from "./run_store.ts";

/** Opens (creating and migrating when needed) the database at `path`, or an in-memory one, as storage. */
export function openSqliteStorage(path: string | ":memory:"): Storage {
  const db = Database.open(path);
  return {
    runs: new RunStore(db),
    artifacts: new ArtifactStore(db),
    definitions: new DefinitionStore(db),
    transaction: (work) => db.transaction(work),
    journalMode: () => db.journalMode(),
    close: () => db.close(),
  };
}
