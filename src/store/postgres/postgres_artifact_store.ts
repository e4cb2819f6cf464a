/**
 * Artifacts (current revision plus every earlier one) and Records (appended when a stage commits) in a team
 * store. A commit locks its stage's Artifact row (`FOR UPDATE`), so two services committing the same stage
 * take turns and each gets a revision of its own.
 *
 * @module
 */
import type { ArtifactQuery, ArtifactStorage, StageCommit } from "../../engine/storage.ts";
import type { ArtifactView, RecordView } from "../../engine/views.ts";
import {
  type ArtifactRow,
  artifactView,
  earlierRevisionView,
  latestPerStage,
  recordView,
  type RevisionRow,
} from "../row_views.ts";
import { pageOf, pageQuery } from "../page_cursor.ts";
import type { PgSql } from "./postgres_database.ts";
import { numbered } from "./placeholders.ts";

/** Reads and writes Artifacts and Records in one unit of work. */
export class PostgresArtifactStore implements ArtifactStorage {
  readonly #sql: PgSql;

  constructor(sql: PgSql) {
    this.#sql = sql;
  }

  async commit(c: StageCommit): Promise<{ artifact: ArtifactView; record: RecordView }> {
    const sql = this.#sql;
    const data = JSON.stringify(c.data ?? null);
    const existing = await sql.get<ArtifactRow>(
      "SELECT * FROM artifacts WHERE flow_name = $1 AND stage_name = $2 FOR UPDATE",
      c.flowName,
      c.stageName,
    );
    const artifactId = existing?.id ?? c.artifactId;
    const revision = existing ? Number(existing.revision) + 1 : 1;
    if (existing) {
      await sql.run(
        "UPDATE artifacts SET revision = $1, run_id = $2, record_id = $3, data = $4, updated_at = $5 WHERE id = $6",
        revision,
        c.runId,
        c.recordId,
        data,
        c.at,
        artifactId,
      );
    } else {
      await sql.run(
        `INSERT INTO artifacts (id, flow_name, stage_name, revision, run_id, record_id, data, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
        artifactId,
        c.flowName,
        c.stageName,
        revision,
        c.runId,
        c.recordId,
        data,
        c.at,
      );
    }
    await sql.run(
      `INSERT INTO artifact_revisions (artifact_id, revision, run_id, record_id, data, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      artifactId,
      revision,
      c.runId,
      c.recordId,
      data,
      c.at,
    );
    await sql.run(
      `INSERT INTO records (id, run_id, flow_name, stage_name, artifact_id, revision, data, answers, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
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
      ? await this.#sql.get<ArtifactRow>("SELECT * FROM artifacts WHERE id = $1", q.artifactId)
      : await this.#sql.get<ArtifactRow>(
        "SELECT * FROM artifacts WHERE flow_name = $1 AND stage_name = $2",
        q.flowName,
        q.stageName,
      );
    if (!row) return null;
    if (revision === undefined || revision === Number(row.revision)) {
      return { ...artifactView(row), data: JSON.parse(row.data) };
    }
    const old = await this.#sql.get<RevisionRow>(
      "SELECT * FROM artifact_revisions WHERE artifact_id = $1 AND revision = $2",
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
    const rows = await this.#sql.all<ArtifactRow>(
      numbered(
        `SELECT seq, id, flow_name, stage_name, revision, run_id, record_id, created_at, updated_at
         FROM artifacts ${where} ORDER BY seq DESC LIMIT ?`,
      ),
      ...params as (string | number)[],
      limit + 1,
    );
    const { page, nextCursor } = pageOf(
      rows.map((row) => ({ ...row, seq: Number(row.seq) })),
      limit,
      filters,
    );
    return { artifacts: page.map(artifactView), nextCursor };
  }

  async findRecord(recordId: string): Promise<RecordView | null> {
    const row = await this.#sql.get<Record<string, string | number>>(
      "SELECT * FROM records WHERE id = $1",
      recordId,
    );
    return row ? recordView(row) : null;
  }

  async committedByRun(
    runId: string,
  ): Promise<{ stageName: string; artifactId: string; revision: number; data: unknown }[]> {
    const rows = await this.#sql.all<
      { stage_name: string; artifact_id: string; revision: number; data: string }
    >(
      "SELECT stage_name, artifact_id, revision, data FROM records WHERE run_id = $1 ORDER BY seq",
      runId,
    );
    return latestPerStage(rows);
  }

  async counts(): Promise<{ artifacts: number; records: number }> {
    const row = await this.#sql.get<{ artifacts: string; records: string }>(
      "SELECT (SELECT COUNT(*) FROM artifacts) AS artifacts, (SELECT COUNT(*) FROM records) AS records",
    );
    return { artifacts: Number(row?.artifacts ?? 0), records: Number(row?.records ?? 0) };
  }
}
