/**
 * What weft last wrote to each project file, and the publications decided but not finished yet, in a team
 * store: one row per path, replaced at each write, and one row per publication to do.
 *
 * @module
 */
import type { PendingPublication, PublicationRecord, PublicationStorage } from "../../engine/storage.ts";
import { pendingView, type PublicationRow, publicationView } from "../row_views.ts";
import type { PgSql } from "./postgres_database.ts";

/** Reads and writes publication records in one unit of work. */
export class PostgresPublicationStore implements PublicationStorage {
  readonly #sql: PgSql;

  constructor(sql: PgSql) {
    this.#sql = sql;
  }

  async find(path: string): Promise<PublicationRecord | undefined> {
    const row = await this.#sql.get<PublicationRow>("SELECT * FROM publications WHERE path = $1", path);
    return row && publicationView(row);
  }

  async save(record: PublicationRecord): Promise<void> {
    await this.#sql.run(
      `INSERT INTO publications (path, digest, artifact_id, revision, run_id, written_at) VALUES ($1, $2, $3, $4, $5, $6)
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
    return (await this.#sql.all<PublicationRow>('SELECT * FROM publications ORDER BY path COLLATE "C"')).map(
      publicationView,
    );
  }

  async addPending(pending: PendingPublication): Promise<void> {
    await this.#sql.run(
      "INSERT INTO pending_publications (artifact_id, revision, run_id, job) VALUES ($1, $2, $3, $4)",
      pending.artifactId,
      pending.revision,
      pending.runId,
      JSON.stringify(pending.job),
    );
  }

  async removePending(artifactId: string, revision: number): Promise<boolean> {
    const removed = await this.#sql.run(
      "DELETE FROM pending_publications WHERE artifact_id = $1 AND revision = $2",
      artifactId,
      revision,
    );
    return removed > 0;
  }

  async listPending(): Promise<PendingPublication[]> {
    const rows = await this.#sql.all<{ artifact_id: string; revision: number; run_id: string; job: string }>(
      "SELECT artifact_id, revision, run_id, job FROM pending_publications ORDER BY seq",
    );
    return rows.map(pendingView);
  }
}
