/**
 * A team store's PostgreSQL database: connected through the `pg` driver (credentials from `PGPASSWORD` or
 * `.pgpass`, never from weft's files), migrated once however many services start together, checked to hold
 * the configured project, and the one place that turns driver failures into classified errors whose messages
 * name the database without its password.
 *
 * @module
 */
import pg from "pg";
import { WeftError } from "../../errors.ts";
import { connectionString, describeTarget, type TeamDatabase } from "./connection_target.ts";
import { PG_MIGRATIONS } from "./postgres_migrations.ts";

/**
 * The part of the driver's pool weft uses. The driver ships no types of its own; these few lines stand in for
 * the separate type package (and Node's types, which it pulls in), so nothing but the driver is installed.
 */
interface Pool {
  connect(): Promise<PoolClient>;
  end(): Promise<void>;
  on(event: "error", listener: (error: unknown) => void): void;
}

/** One pooled connection, as weft uses it. */
interface PoolClient {
  query(text: string, params: PgValue[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
  /** Returns the connection to the pool, or closes it when `destroy` (it failed). */
  release(destroy?: boolean): void;
}

/** The pool's constructor with the options weft sets. */
const NewPool = pg.Pool as new (options: {
  connectionString: string;
  max: number;
  connectionTimeoutMillis: number;
  idleTimeoutMillis: number;
  application_name: string;
}) => Pool;

/** A value the driver binds. */
export type PgValue = string | number | null | Uint8Array | string[];

/** Statements of one unit of work, on the connection that unit holds. */
export interface PgSql {
  /** Executes a statement; the number of rows it changed. */
  run(sql: string, ...params: PgValue[]): Promise<number>;
  /** The first row of a query, or undefined. */
  get<T>(sql: string, ...params: PgValue[]): Promise<T | undefined>;
  /** Every row of a query. */
  all<T>(sql: string, ...params: PgValue[]): Promise<T[]>;
}

/**
 * The key of the advisory lock migrations hold: a constant of weft's, so concurrent starts of any two services
 * on one database queue on it and the second finds the schema current.
 */
const MIGRATION_LOCK = 0x77656674; // "weft"

/** An open team database. */
export class PostgresDatabase {
  readonly #pool: Pool;
  /** How messages name the database. */
  readonly described: string;

  private constructor(pool: Pool, described: string) {
    this.#pool = pool;
    this.described = described;
  }

  /**
   * Connects as `role` (how the server lists the connection: `service`, `team`), migrates and confirms that
   * the database holds `target.project`; an empty database is claimed for it. `CONFIGURATION_REQUIRED` when it
   * holds another project, `STORAGE_ERROR` when it cannot be reached.
   */
  static async open(target: TeamDatabase, role: string): Promise<PostgresDatabase> {
    const described = describeTarget(target);
    const pool = new NewPool({
      connectionString: connectionString(target),
      max: 2,
      connectionTimeoutMillis: 10_000,
      // Idle connections stay open: the server's own list of sessions then says which services are up.
      idleTimeoutMillis: 0,
      application_name: applicationName(role),
    });
    // An idle connection the server closes must not crash the process; the next unit opens a new one.
    pool.on("error", () => {});
    const db = new PostgresDatabase(pool, described);
    try {
      await db.transaction(async (sql) => {
        await sql.run("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK);
        await migrate(sql, described);
        await confirmProject(sql, target.project, described);
      });
    } catch (error) {
      await pool.end().catch(() => {});
      throw error;
    }
    return db;
  }

  /** Runs `work` in one transaction on one connection, committed once it has settled, rolled back on a throw. */
  async transaction<T>(work: (sql: PgSql) => Promise<T>): Promise<T> {
    return await this.#withClient(async (sql) => {
      await sql.run("BEGIN");
      try {
        const result = await work(sql);
        await sql.run("COMMIT");
        return result;
      } catch (error) {
        await sql.run("ROLLBACK").catch(() => {});
        throw error;
      }
    });
  }

  /** Runs `work`, which only reads, in one read-only transaction: one snapshot of what was committed. */
  async read<T>(work: (sql: PgSql) => Promise<T>): Promise<T> {
    return await this.#withClient(async (sql) => {
      await sql.run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      try {
        return await work(sql);
      } finally {
        await sql.run("ROLLBACK").catch(() => {});
      }
    });
  }

  /** Closes every connection. */
  async close(): Promise<void> {
    await this.#pool.end();
  }

  /** Runs `work` on one pooled connection; a connection that failed is discarded rather than reused. */
  async #withClient<T>(work: (sql: PgSql) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw classify(error, this.described);
    }
    let broken = false;
    const query = async (text: string, params: PgValue[]) => {
      try {
        return await client.query(text, params);
      } catch (error) {
        broken ||= isConnectionFailure(error);
        throw classify(error, this.described);
      }
    };
    try {
      return await work({
        run: async (text, ...params) => (await query(text, params)).rowCount ?? 0,
        get: async <R>(text: string, ...params: PgValue[]) =>
          (await query(text, params)).rows[0] as R | undefined,
        all: async <R>(text: string, ...params: PgValue[]) => (await query(text, params)).rows as R[],
      });
    } finally {
      client.release(broken);
    }
  }
}

/** How a connection introduces itself to the server: weft, its role (a service, a command), who and where. */
export function applicationName(role: string): string {
  const who = Deno.env.get("USER") ?? Deno.env.get("USERNAME") ?? "someone";
  // The server keeps 63 bytes of it.
  return `${APPLICATION_PREFIX}${role} ${who}@${Deno.hostname()} pid ${Deno.pid}`.slice(0, 63);
}

/** What every weft connection's application name begins with. */
export const APPLICATION_PREFIX = "weft ";

async function migrate(sql: PgSql, described: string): Promise<void> {
  await sql.run(
    "CREATE TABLE IF NOT EXISTS weft_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
  );
  const row = await sql.get<{ n: number | null }>("SELECT MAX(version) AS n FROM weft_migrations");
  const version = Number(row?.n ?? 0);
  if (version > PG_MIGRATIONS.length) {
    throw new WeftError(
      "STORAGE_ERROR",
      `The team database ${described} was written by a newer weft; upgrade weft to use it.`,
    );
  }
  for (let index = version; index < PG_MIGRATIONS.length; index++) {
    await sql.run(PG_MIGRATIONS[index]);
    await sql.run(
      "INSERT INTO weft_migrations (version, applied_at) VALUES ($1, $2)",
      index + 1,
      new Date().toISOString(),
    );
  }
}

async function confirmProject(sql: PgSql, project: string, described: string): Promise<void> {
  await sql.run(
    "INSERT INTO weft_project (project_key, created_at) VALUES ($1, $2) ON CONFLICT (only_row) DO NOTHING",
    project,
    new Date().toISOString(),
  );
  const held = await sql.get<{ project_key: string }>("SELECT project_key FROM weft_project");
  if (held?.project_key !== project) {
    throw new WeftError(
      "CONFIGURATION_REQUIRED",
      `The team database ${described} holds project "${held?.project_key}", not "${project}": ` +
        "each project has a database of its own; check the project key or the database in your configuration.",
    );
  }
}

/** SQLSTATE classes of a connection lost or refused, and of a server shutting down. */
function isConnectionFailure(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  // The driver's own failures without a server code: a closed socket, a timeout while connecting.
  if (typeof code !== "string") return !(error as { severity?: unknown })?.severity;
  return code.startsWith("08") || code.startsWith("57P") || /^E[A-Z]+$/.test(code);
}

/**
 * A driver failure as a classified error. Serialization failures, deadlocks and a unique key taken by a
 * concurrent writer are retryable; the message names the database by {@linkcode describeTarget} only, since
 * the driver's own text may quote the connection.
 */
function classify(error: unknown, described: string): WeftError {
  if (error instanceof WeftError) return error;
  const code = String((error as { code?: unknown })?.code ?? "");
  if (code === "40001" || code === "40P01" || code === "55P03") {
    return new WeftError("BUSY", "The team database is busy with a concurrent change; retry shortly.", {
      cause: error,
    });
  }
  if (code === "23505") {
    return new WeftError("CONFLICT", "Another service stored the same thing at the same moment; retry.", {
      retryable: true,
      cause: error,
    });
  }
  // The driver refuses to answer a password challenge it has no password for (no PGPASSWORD, no .pgpass line).
  const noPassword = !code && /client password must be/.test(String((error as Error)?.message));
  if (noPassword || code === "28P01" || code === "28000") {
    return new WeftError(
      "CONFIGURATION_REQUIRED",
      `The team database ${described} refused the login: give the password in PGPASSWORD or ~/.pgpass.`,
      { cause: error },
    );
  }
  if (code === "3D000") {
    return new WeftError("CONFIGURATION_REQUIRED", `The team database ${described} does not exist.`, {
      cause: error,
    });
  }
  if (isConnectionFailure(error)) {
    return new WeftError(
      "STORAGE_ERROR",
      `The team database ${described} cannot be reached; retry shortly.`,
      {
        retryable: true,
        cause: error,
      },
    );
  }
  return new WeftError("STORAGE_ERROR", "The team database could not complete the operation.", {
    cause: error,
  });
}
