// deno-lint-ignore-file require-await -- node:sqlite is synchronous; the methods are async to fulfil the
// engine's asynchronous storage port (a failure becomes a rejected promise, as from a networked store).
/**
 * What weft last wrote to each project file it publishes, over SQLite: one row per path, replaced at each
 * write, so the next write can tell a person's edit (or a file weft never wrote) from its own; and the
 * publications decided but not finished yet, one row each.
 *
 * @module
 */
import type { PendingPublication, PublicationRecord, PublicationStorage } from "../engine/storage.ts";
import type { Database } from "./database.ts";
import { pendingView, type PublicationRow, publicationView } from "./row_views.ts";

/** Reads and writes publication records. */
export class PublicationStore implements PublicationStorage {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async find(path: string): Promise<PublicationRecord | undefined> {
    const row = this.#db.get<PublicationRow>("SELECT * FROM publications WHERE path = ?", path);
    return row && publicationView(row);
  }

  async save(record: PublicationRecord): Promise<void> {
    this.#db.run(
      `INSERT INTO publications (path, digest, artifact_id, revision, run_id, written_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (path) DO UPDATE SET digest = excluded.digest, artifact_id = excluded.artifact_id,
         revision = excluded.revision, run_id = excluded.run_id, written_at = excluded.written_at`,
      record.path,
      record.digest,
      record.artifactId,
      record.revision,
      record.runId,
      record.at,
    );
  }

  async list(): Promise<PublicationRecord[]> {
    return this.#db.all<PublicationRow>("SELECT * FROM publications ORDER BY path").map(publicationView);
  }

  async addPending(pending: PendingPublication): Promise<void> {
    this.#db.run(
      "INSERT INTO pending_publications (artifact_id, revision, run_id, job) VALUES (?, ?, ?, ?)",
      pending.artifactId,
      pending.revision,
      pending.runId,
      JSON.stringify(pending.job),
    );
  }

  async removePending(artifactId: string, revision: number): Promise<boolean> {
    const removed = this.#db.get<{ seq: number }>(
      "DELETE FROM pending_publications WHERE artifact_id = ? AND revision = ? RETURNING seq",
      artifactId,
      revision,
    );
    return removed !== undefined;
  }

  async listPending(): Promise<PendingPublication[]> {
    return this.#db.all<{ artifact_id: string; revision: number; run_id: string; job: string }>(
      "SELECT artifact_id, revision, run_id, job FROM pending_publications ORDER BY seq",
    ).map(pendingView);
  }
}
