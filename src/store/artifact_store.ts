// deno-lint-ignore-file require-await -- node:sqlite is synchronous; the methods are async to fulfil the
// engine's asynchronous storage port (a failure becomes a rejected promise, as from a networked store).
/**
 * Persistence of Artifacts (current revision plus every earlier one) and Records (immutable, appended when a
 * stage commits). A commit writes both in the caller's transaction.
 *
 * @module
 */
import type { ArtifactQuery, ArtifactStorage, StageCommit } from "../engine/storage.ts";
import type { ArtifactView, RecordView } from "../engine/views.ts";
import type { Database } from "./database.ts";
import { pageOf, pageQuery } from "./page_cursor.ts";
import {
  type ArtifactRow,
  artifactView,
  earlierRevisionView,
  latestPerStage,
  recordView,
  type RevisionRow,
} from "./row_views.ts";

/** Reads and writes Artifacts and Records. */
export class ArtifactStore implements ArtifactStorage {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async commit(c: StageCommit): Promise<{ artifact: ArtifactView; record: RecordView }> {
    const data = JSON.stringify(c.data ?? null);
    const existing = this.#db.get<ArtifactRow>(
      "SELECT * FROM artifacts WHERE flow_name = ? AND stage_name = ?",
      c.flowName,
      c.stageName,
    );
    const artifactId = existing?.id ?? c.artifactId;
    const revision = existing ? Number(existing.revision) + 1 : 1;
    if (existing) {
      this.#db.run(
        "UPDATE artifacts SET revision = ?, run_id = ?, record_id = ?, data = ?, updated_at = ? WHERE id = ?",
        revision,
        c.runId,
        c.recordId,
        data,
        c.at,
        artifactId,
      );
    } else {
      this.#db.run(
        `INSERT INTO artifacts (id, flow_name, stage_name, revision, run_id, record_id, data, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        artifactId,
        c.flowName,
        c.stageName,
        revision,
        c.runId,
        c.recordId,
        data,
        c.at,
        c.at,
      );
    }
    this.#db.run(
      "INSERT INTO artifact_revisions (artifact_id, revision, run_id, record_id, data, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      artifactId,
      revision,
      c.runId,
      c.recordId,
      data,
      c.at,
    );
    this.#db.run(
      `INSERT INTO records (id, run_id, flow_name, stage_name, artifact_id, revision, data, answers, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      c.recordId,
      c.runId,
      c.flowName,
      c.stageName,
      artifactId,
      revision,
      data,
      JSON.stringify(c.answers),
      c.at,
    );
    return {
      artifact: (await this.findArtifact({ artifactId }))!,
      record: (await this.findRecord(c.recordId))!,
    };
  }

  async findArtifact(q: ArtifactQuery, revision?: number): Promise<ArtifactView | null> {
    const row = "artifactId" in q
      ? this.#db.get<ArtifactRow>("SELECT * FROM artifacts WHERE id = ?", q.artifactId)
      : this.#db.get<ArtifactRow>(
        "SELECT * FROM artifacts WHERE flow_name = ? AND stage_name = ?",
        q.flowName,
        q.stageName,
      );
    if (!row) return null;
    if (revision === undefined || revision === Number(row.revision)) {
      return { ...artifactView(row), data: JSON.parse(row.data) };
    }
    const old = this.#db.get<RevisionRow>(
      "SELECT * FROM artifact_revisions WHERE artifact_id = ? AND revision = ?",
      row.id,
      revision,
    );
    return old ? earlierRevisionView(row, old, revision) : null;
  }

  async list(q: { flowName?: string; stageName?: string; limit?: number; cursor?: string }): Promise<{
    artifacts: ArtifactView[];
    nextCursor?: string;
  }> {
    const filters = { flowName: q.flowName, stageName: q.stageName };
    const { where, params, limit } = pageQuery(q, filters, {
      flowName: "flow_name",
      stageName: "stage_name",
    });
    const rows = this.#db.all<ArtifactRow>(
      `SELECT seq, id, flow_name, stage_name, revision, run_id, record_id, created_at, updated_at
       FROM artifacts ${where} ORDER BY seq DESC LIMIT ?`,
      ...params,
      limit + 1,
    );
    const { page, nextCursor } = pageOf(rows, limit, filters);
    return { artifacts: page.map(artifactView), nextCursor };
  }

  async findRecord(recordId: string): Promise<RecordView | null> {
    const row = this.#db.get<Record<string, string | number>>("SELECT * FROM records WHERE id = ?", recordId);
    return row ? recordView(row) : null;
  }

  async committedByRun(
    runId: string,
  ): Promise<{ stageName: string; artifactId: string; revision: number; data: unknown }[]> {
    const rows = this.#db.all<{ stage_name: string; artifact_id: string; revision: number; data: string }>(
      "SELECT stage_name, artifact_id, revision, data FROM records WHERE run_id = ? ORDER BY seq",
      runId,
    );
    return latestPerStage(rows);
  }

  /** How many Artifacts and Records are stored, kept by the store's triggers (constant time). */
  async counts(): Promise<{ artifacts: number; records: number }> {
    const rows = this.#db.all<{ name: string; n: number }>(
      "SELECT name, n FROM counts WHERE name IN ('artifacts', 'records')",
    );
    const count = (name: string) => Number(rows.find((row) => row.name === name)?.n ?? 0);
    return { artifacts: count("artifacts"), records: count("records") };
  }
}
