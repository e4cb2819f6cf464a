// deno-lint-ignore-file require-await -- node:sqlite is synchronous; the methods are async to fulfil the
// engine's asynchronous storage port (a failure becomes a rejected promise, as from a networked store).
/**
 * Persistence of Runs and their event timelines. A Run is stored as a few indexed columns plus one JSON body
 * holding everything the engine needs to continue it, so a Run waiting for a human is pure data.
 *
 * @module
 */
import type { NewRunEvent, RunState } from "../engine/run_state.ts";
import type { RunStorage } from "../engine/storage.ts";
import { ACTIVE_RUN_STATUSES, type RunEventView, type RunStatus } from "../engine/views.ts";
import type { Database } from "./database.ts";
import { pageOf, pageQuery } from "./page_cursor.ts";
import { eventView } from "./row_views.ts";

/** The active statuses as an SQL list, so the store and `isActive()` agree on what active means. */
const ACTIVE = ACTIVE_RUN_STATUSES.map((status) => `'${status}'`).join(", ");

/** Reads and writes Runs and their timelines. */
export class RunStore implements RunStorage {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async insert(run: RunState): Promise<void> {
    this.#db.run(
      "INSERT INTO runs (id, flow_name, version, status, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      run.runId,
      run.flowName,
      run.version ?? null,
      run.status,
      JSON.stringify(run),
      run.createdAt,
      run.updatedAt,
    );
  }

  /**
   * Saves the body on every change, and the indexed columns only when they changed: SQLite rewrites the index
   * entries of every column a SET names, even to the same value, and most changes (a claim, a submitted
   * value) keep both, so naming them would add two index pages to the WAL of each commit.
   */
  async update(run: RunState): Promise<void> {
    this.#db.run(
      "UPDATE runs SET body = ?, updated_at = ? WHERE id = ?",
      JSON.stringify(run),
      run.updatedAt,
      run.runId,
    );
    this.#db.run(
      "UPDATE runs SET status = ? WHERE id = ? AND status IS NOT ?",
      run.status,
      run.runId,
      run.status,
    );
    const version = run.version ?? null;
    this.#db.run(
      "UPDATE runs SET version = ? WHERE id = ? AND version IS NOT ?",
      version,
      run.runId,
      version,
    );
  }

  async find(runId: string): Promise<RunState | undefined> {
    const row = this.#db.get<{ body: string }>("SELECT body FROM runs WHERE id = ?", runId);
    return row ? JSON.parse(row.body) : undefined;
  }

  async hasActive(flowName: string): Promise<boolean> {
    return this.#db.get(
      `SELECT 1 FROM runs WHERE flow_name = ? AND status IN (${ACTIVE}) LIMIT 1`,
      flowName,
    ) !== undefined;
  }

  async list(q: { flowName?: string; status?: RunStatus; limit?: number; cursor?: string }): Promise<{
    runs: RunState[];
    nextCursor?: string;
  }> {
    const filters = { flowName: q.flowName, status: q.status };
    const { where, params, limit } = pageQuery(q, filters, { flowName: "flow_name", status: "status" });
    const rows = this.#db.all<{ seq: number; body: string }>(
      `SELECT seq, body FROM runs ${where} ORDER BY seq DESC LIMIT ?`,
      ...params,
      limit + 1,
    );
    const { page, nextCursor } = pageOf(rows, limit, filters);
    return { runs: page.map((row) => JSON.parse(row.body)), nextCursor };
  }

  async activeVersions(): Promise<{ flowName: string; version: string | null; count: number }[]> {
    return this.#db.all<{ flow_name: string; version: string | null; n: number }>(
      `SELECT flow_name, version, COUNT(*) AS n FROM runs WHERE status IN (${ACTIVE})
       GROUP BY flow_name, version`,
    ).map((row) => ({ flowName: row.flow_name, version: row.version, count: Number(row.n) }));
  }

  async unversioned(): Promise<RunState[]> {
    return this.#db.all<{ body: string }>(
      "SELECT body FROM runs WHERE version IS NULL AND status NOT IN ('completed', 'cancelled') ORDER BY seq",
    ).map((row) => JSON.parse(row.body));
  }

  /** Counts of Runs per status, kept by the store's triggers (constant time, whatever the store holds). */
  async countByStatus(): Promise<Record<string, number>> {
    const rows = this.#db.all<{ name: string; n: number }>(
      "SELECT name, n FROM counts WHERE name LIKE 'runs.%'",
    );
    return Object.fromEntries(rows.map((row) => [row.name.slice("runs.".length), Number(row.n)]));
  }

  async listInterruptible(): Promise<RunState[]> {
    return this.#db.all<{ body: string }>(
      `SELECT body FROM runs
       WHERE status = 'running' OR (status = 'waiting' AND (json_extract(body, '$.pendingAgentCall') IS NOT NULL
         OR json_extract(body, '$.pendingCommand.phase') IN ('available', 'running')))`,
    ).map((row): RunState => JSON.parse(row.body));
  }

  async appendEvents(runId: string, events: NewRunEvent[]): Promise<void> {
    if (events.length === 0) return;
    const last = this.#db.get<{ seq: number | null }>(
      "SELECT MAX(seq) AS seq FROM run_events WHERE run_id = ?",
      runId,
    );
    let seq = Number(last?.seq ?? 0);
    for (const { type, at, ...rest } of events) {
      this.#db.run(
        "INSERT INTO run_events (run_id, seq, at, type, body) VALUES (?, ?, ?, ?, ?)",
        runId,
        ++seq,
        at,
        type,
        JSON.stringify(rest),
      );
    }
  }

  async timeline(runId: string): Promise<RunEventView[]> {
    return this.#db.all<{ seq: number; at: string; type: string; body: string }>(
      "SELECT seq, at, type, body FROM run_events WHERE run_id = ? ORDER BY seq",
      runId,
    ).map(eventView);
  }
}
