/**
 * Runs and their timelines in a team store. Each Run row carries `rev`, which grows with every save: a Run is
 * saved only over the revision it was loaded at (compared in the `UPDATE`'s `WHERE`), so a change another
 * service committed since is never overwritten; the save fails as a retryable `CONFLICT` instead and the
 * engine's whole transaction rolls back.
 *
 * @module
 */
import type { NewRunEvent, RunState } from "../../engine/run_state.ts";
import type { RunStorage } from "../../engine/storage.ts";
import { ACTIVE_RUN_STATUSES, type RunEventView, type RunStatus } from "../../engine/views.ts";
import { WeftError } from "../../errors.ts";
import { pageOf, pageQuery } from "../page_cursor.ts";
import { eventView } from "../row_views.ts";
import type { PgSql } from "./postgres_database.ts";
import { numbered } from "./placeholders.ts";

/** The active statuses as an SQL list, so the store and `isActive()` agree on what active means. */
const ACTIVE = ACTIVE_RUN_STATUSES.map((status) => `'${status}'`).join(", ");

/**
 * The revision each Run object was loaded (or inserted) at, by identity: the engine saves the very object it
 * loaded, so what it loaded is known without widening the storage port.
 */
export type LoadedRevisions = WeakMap<RunState, number>;

type BodyRow = { body: string; rev: string | number };

/** Reads and writes Runs and their timelines in one unit of work. */
export class PostgresRunStore implements RunStorage {
  readonly #sql: PgSql;
  readonly #loaded: LoadedRevisions;

  constructor(sql: PgSql, loaded: LoadedRevisions) {
    this.#sql = sql;
    this.#loaded = loaded;
  }

  async insert(run: RunState): Promise<void> {
    await this.#sql.run(
      `INSERT INTO runs (id, flow_name, version, status, rev, body, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 1, $5, $6, $7)`,
      run.runId,
      run.flowName,
      run.version ?? null,
      run.status,
      JSON.stringify(run),
      run.createdAt,
      run.updatedAt,
    );
    this.#loaded.set(run, 1);
  }

  async update(run: RunState): Promise<void> {
    const rev = this.#loaded.get(run);
    if (rev === undefined) {
      throw new WeftError("STORAGE_ERROR", `Run ${run.runId} was saved without being loaded first.`);
    }
    const changed = await this.#sql.run(
      `UPDATE runs SET body = $1, updated_at = $2, status = $3, version = $4, rev = rev + 1
       WHERE id = $5 AND rev = $6`,
      JSON.stringify(run),
      run.updatedAt,
      run.status,
      run.version ?? null,
      run.runId,
      rev,
    );
    if (changed !== 1) {
      throw new WeftError(
        "CONFLICT",
        `Run ${run.runId} was changed by another service since it was read; read it again and retry.`,
        { retryable: true },
      );
    }
    this.#loaded.set(run, rev + 1);
  }

  async find(runId: string): Promise<RunState | undefined> {
    const row = await this.#sql.get<BodyRow>("SELECT body, rev FROM runs WHERE id = $1", runId);
    return row && this.#loadedRun(row);
  }

  async hasActive(flowName: string): Promise<boolean> {
    const row = await this.#sql.get(
      `SELECT 1 FROM runs WHERE flow_name = $1 AND status IN (${ACTIVE}) LIMIT 1`,
      flowName,
    );
    return row !== undefined;
  }

  async list(q: { flowName?: string; status?: RunStatus; limit?: number; cursor?: string }): Promise<{
    runs: RunState[];
    nextCursor?: string;
  }> {
    const filters = { flowName: q.flowName, status: q.status };
    const { where, params, limit } = pageQuery(q, filters, { flowName: "flow_name", status: "status" });
    const rows = await this.#sql.all<BodyRow & { seq: string }>(
      numbered(`SELECT seq, body, rev FROM runs ${where} ORDER BY seq DESC LIMIT ?`),
      ...params as (string | number)[],
      limit + 1,
    );
    const { page, nextCursor } = pageOf(
      rows.map((row) => ({ ...row, seq: Number(row.seq) })),
      limit,
      filters,
    );
    return { runs: page.map((row) => this.#loadedRun(row)), nextCursor };
  }

  async countByStatus(): Promise<Record<string, number>> {
    const rows = await this.#sql.all<{ status: string; n: string }>(
      "SELECT status, COUNT(*) AS n FROM runs GROUP BY status",
    );
    const counts: Record<string, number> = { running: 0, waiting: 0, completed: 0, failed: 0, cancelled: 0 };
    for (const row of rows) counts[row.status] = Number(row.n);
    return counts;
  }

  async activeVersions(): Promise<{ flowName: string; version: string | null; count: number }[]> {
    const rows = await this.#sql.all<{ flow_name: string; version: string | null; n: string }>(
      `SELECT flow_name, version, COUNT(*) AS n FROM runs WHERE status IN (${ACTIVE})
       GROUP BY flow_name, version`,
    );
    return rows.map((row) => ({ flowName: row.flow_name, version: row.version, count: Number(row.n) }));
  }

  async unversioned(): Promise<RunState[]> {
    const rows = await this.#sql.all<BodyRow>(
      "SELECT body, rev FROM runs WHERE version IS NULL AND status NOT IN ('completed', 'cancelled') ORDER BY seq",
    );
    return rows.map((row) => this.#loadedRun(row));
  }

  async listInterruptible(): Promise<RunState[]> {
    const rows = await this.#sql.all<BodyRow>(
      `SELECT body, rev FROM runs
       WHERE status = 'running' OR (status = 'waiting' AND (
         COALESCE(jsonb_typeof(body::jsonb -> 'pendingAgentCall'), 'null') <> 'null'
         OR body::jsonb -> 'pendingCommand' ->> 'phase' IN ('available', 'running')))
       ORDER BY seq`,
    );
    return rows.map((row) => this.#loadedRun(row));
  }

  async appendEvents(runId: string, events: NewRunEvent[]): Promise<void> {
    if (events.length === 0) return;
    const last = await this.#sql.get<{ seq: number | null }>(
      "SELECT MAX(seq) AS seq FROM run_events WHERE run_id = $1",
      runId,
    );
    let seq = Number(last?.seq ?? 0);
    for (const { type, at, ...rest } of events) {
      await this.#sql.run(
        "INSERT INTO run_events (run_id, seq, at, type, body) VALUES ($1, $2, $3, $4, $5)",
        runId,
        ++seq,
        at,
        type,
        JSON.stringify(rest),
      );
    }
  }

  async timeline(runId: string): Promise<RunEventView[]> {
    const rows = await this.#sql.all<{ seq: number; at: string; type: string; body: string }>(
      "SELECT seq, at, type, body FROM run_events WHERE run_id = $1 ORDER BY seq",
      runId,
    );
    return rows.map(eventView);
  }

  #loadedRun(row: BodyRow): RunState {
    const run: RunState = JSON.parse(row.body);
    this.#loaded.set(run, Number(row.rev));
    return run;
  }
}
