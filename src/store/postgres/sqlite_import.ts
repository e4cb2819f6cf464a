/**
 * Moves a project's local history (its SQLite store) into its team database: every Run with its timeline,
 * every Artifact with its earlier revisions, every Record, the workflow definitions Runs name and what weft
 * published, read in one SQLite transaction and written in one PostgreSQL transaction, so the team database
 * gets all of it or nothing. History already in the team database (the same Runs, Artifacts of the same
 * stages) is refused rather than merged: a stage's revisions cannot be interleaved after the fact.
 *
 * @module
 */
import { conflict, WeftError } from "../../errors.ts";
import { Database } from "../database.ts";
import type { TeamDatabase } from "./connection_target.ts";
import { type PgSql, type PgValue, PostgresDatabase } from "./postgres_database.ts";

/** How many rows of each kind were moved. */
export interface ImportCounts {
  runs: number;
  events: number;
  artifacts: number;
  records: number;
  definitions: number;
}

/**
 * The tables moved, in an order that satisfies their references, with the columns each keeps; `conflict`
 * says what a row already present does (`skip` for content-addressed rows, shared by right).
 */
const TABLES: { name: string; columns: string[]; order: string; conflict?: "skip" }[] = [
  { name: "blobs", columns: ["digest", "size", "bytes"], order: "digest", conflict: "skip" },
  {
    name: "definitions",
    columns: ["version", "flow_name", "origin", "manifest", "created_at"],
    order: "version",
    conflict: "skip",
  },
  {
    name: "definition_files",
    columns: ["version", "path", "blob"],
    order: "version, path",
    conflict: "skip",
  },
  {
    name: "runs",
    columns: ["id", "flow_name", "version", "status", "body", "created_at", "updated_at"],
    order: "seq",
  },
  { name: "run_events", columns: ["run_id", "seq", "at", "type", "body"], order: "run_id, seq" },
  {
    name: "records",
    columns: [
      "id",
      "run_id",
      "flow_name",
      "stage_name",
      "artifact_id",
      "revision",
      "data",
      "answers",
      "created_at",
    ],
    order: "seq",
  },
  {
    name: "artifacts",
    columns: [
      "id",
      "flow_name",
      "stage_name",
      "revision",
      "run_id",
      "record_id",
      "data",
      "created_at",
      "updated_at",
    ],
    order: "seq",
  },
  {
    name: "artifact_revisions",
    columns: ["artifact_id", "revision", "run_id", "record_id", "data", "created_at"],
    order: "artifact_id, revision",
  },
  {
    name: "publications",
    columns: ["path", "digest", "artifact_id", "revision", "run_id", "written_at"],
    order: "path",
    conflict: "skip",
  },
];

/** Copies the SQLite store at `sqlitePath` into the team database; `CONFLICT` when any of it is there already. */
export async function importSqliteHistory(sqlitePath: string, target: TeamDatabase): Promise<ImportCounts> {
  try {
    await Deno.lstat(sqlitePath);
  } catch {
    throw new WeftError("NOT_FOUND", "This project has no local history to move (.weft/weft.db).");
  }
  const local = Database.open(sqlitePath);
  let rows: Map<string, Record<string, PgValue>[]>;
  try {
    // One transaction: a service writing meanwhile waits, and what is read is one consistent state.
    rows = await local.transaction(() => {
      const pending = local.get<{ n: number }>("SELECT COUNT(*) AS n FROM pending_publications");
      if (Number(pending?.n) > 0) {
        throw conflict(
          "The local history has publications not written yet; start weft on SQLite once to finish them, " +
            "then move it.",
        );
      }
      const read = new Map<string, Record<string, PgValue>[]>();
      for (const table of TABLES) {
        read.set(
          table.name,
          local.all(`SELECT ${table.columns.join(", ")} FROM ${table.name} ORDER BY ${table.order}`),
        );
      }
      return Promise.resolve(read);
    });
  } finally {
    local.close();
  }
  const team = await PostgresDatabase.open(target, "import");
  try {
    await team.transaction(async (sql) => {
      await refuseOverlap(sql, rows);
      for (const table of TABLES) await insertAll(sql, table, rows.get(table.name)!);
    });
  } finally {
    await team.close();
  }
  const count = (name: string) => rows.get(name)!.length;
  return {
    runs: count("runs"),
    events: count("run_events"),
    artifacts: count("artifacts"),
    records: count("records"),
    definitions: count("definitions"),
  };
}

async function refuseOverlap(sql: PgSql, rows: Map<string, Record<string, PgValue>[]>): Promise<void> {
  const runIds = rows.get("runs")!.map((row) => String(row.id));
  const runs = await sql.get<{ n: string }>("SELECT COUNT(*) AS n FROM runs WHERE id = ANY($1)", runIds);
  if (Number(runs?.n) > 0) {
    throw conflict(
      `${runs?.n} of the local history's Runs are in the team database already (moved before?); nothing was moved.`,
    );
  }
  const stages = rows.get("artifacts")!.map((row) => `${row.flow_name}/${row.stage_name}`);
  const shared = await sql.all<{ stage: string }>(
    "SELECT flow_name || '/' || stage_name AS stage FROM artifacts WHERE flow_name || '/' || stage_name = ANY($1)",
    stages,
  );
  if (shared.length) {
    throw conflict(
      `The team database has Artifacts of stages the local history has too (${
        shared.map((row) => row.stage).join(", ")
      }); nothing was moved.`,
    );
  }
}

async function insertAll(
  sql: PgSql,
  table: (typeof TABLES)[number],
  rows: Record<string, PgValue>[],
): Promise<void> {
  const placeholders = table.columns.map((_, index) => `$${index + 1}`).join(", ");
  const onConflict = table.conflict === "skip" ? " ON CONFLICT DO NOTHING" : "";
  const statement = `INSERT INTO ${table.name} (${
    table.columns.join(", ")
  }) VALUES (${placeholders})${onConflict}`;
  for (const row of rows) {
    await sql.run(statement, ...table.columns.map((column) => normalize(row[column])));
  }
}

/** SQLite hands back integers as numbers or bigints; the driver binds numbers. */
function normalize(value: unknown): PgValue {
  return typeof value === "bigint" ? Number(value) : value as PgValue;
}
