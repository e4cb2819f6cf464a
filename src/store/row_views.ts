/**
 * The rows both stores (SQLite and the team store on PostgreSQL) read, and the views the engine gets from
 * them: one mapping for the two, so the stores differ in their SQL only.
 *
 * @module
 */
import type { PendingPublication, PublicationRecord } from "../engine/storage.ts";
import type { ArtifactView, RecordView, RunEventView } from "../engine/views.ts";

/** An `artifacts` row. */
export interface ArtifactRow {
  seq: number;
  id: string;
  flow_name: string;
  stage_name: string;
  revision: number;
  run_id: string;
  record_id: string;
  data: string;
  created_at: string;
  updated_at: string;
}

/** An `artifact_revisions` row (an earlier revision of an Artifact). */
export interface RevisionRow {
  run_id: string;
  record_id: string;
  data: string;
  created_at: string;
}

/** A `publications` row. */
export interface PublicationRow {
  path: string;
  digest: string;
  artifact_id: string;
  revision: number;
  run_id: string;
  written_at: string;
}

/** The metadata of an Artifact row, as views show it. */
export function artifactView(row: ArtifactRow): ArtifactView {
  return {
    artifactId: row.id,
    flowName: row.flow_name,
    stageName: row.stage_name,
    revision: Number(row.revision),
    runId: row.run_id,
    recordId: row.record_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** An Artifact as it was at an earlier `revision`, with its data. */
export function earlierRevisionView(row: ArtifactRow, old: RevisionRow, revision: number): ArtifactView {
  return {
    ...artifactView(row),
    revision,
    runId: old.run_id,
    recordId: old.record_id,
    updatedAt: old.created_at,
    data: JSON.parse(old.data),
  };
}

/** A `records` row as the engine sees it. */
export function recordView(row: Record<string, string | number>): RecordView {
  return {
    recordId: String(row.id),
    runId: String(row.run_id),
    flowName: String(row.flow_name),
    stageName: String(row.stage_name),
    artifactId: String(row.artifact_id),
    revision: Number(row.revision),
    data: JSON.parse(String(row.data)),
    answers: JSON.parse(String(row.answers)),
    createdAt: String(row.created_at),
  };
}

/** Of a Run's records, oldest first, the latest commit of each stage with its data. */
export function latestPerStage(
  rows: { stage_name: string; artifact_id: string; revision: number; data: string }[],
): { stageName: string; artifactId: string; revision: number; data: unknown }[] {
  const latest = new Map(rows.map((row) => [row.stage_name, row]));
  return [...latest.values()].map((row) => ({
    stageName: row.stage_name,
    artifactId: row.artifact_id,
    revision: Number(row.revision),
    data: JSON.parse(row.data),
  }));
}

/** A `run_events` row as a timeline entry. */
export function eventView(row: { seq: number; at: string; type: string; body: string }): RunEventView {
  return { ...JSON.parse(row.body), seq: Number(row.seq), at: row.at, type: row.type };
}

/** A `publications` row as the engine sees it. */
export function publicationView(row: PublicationRow): PublicationRecord {
  return {
    path: row.path,
    digest: row.digest,
    artifactId: row.artifact_id,
    revision: Number(row.revision),
    runId: row.run_id,
    at: row.written_at,
  };
}

/** A `pending_publications` row as the engine sees it. */
export function pendingView(
  row: { artifact_id: string; revision: number; run_id: string; job: string },
): PendingPublication {
  return {
    artifactId: row.artifact_id,
    revision: Number(row.revision),
    runId: row.run_id,
    job: JSON.parse(row.job),
  };
}
