/**
 * The SQLite database of one project: opened in WAL mode with a busy timeout, migrated to the current schema
 * version, and the one place that turns SQLite failures into classified errors.
 *
 * @module
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { dirname } from "node:path";
import { WeftError } from "../errors.ts";
import { MIGRATIONS } from "./migrations.ts";

/** An open store database. */
export class Database {
  readonly #db: DatabaseSync;
  /** Prepared once per SQL text: the store runs a small fixed set of statements on every tool call. */
  readonly #statements = new Map<string, StatementSync>();

  private constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Opens (creating when missing) and migrates the database at `path`, or an in-memory one. */
  static open(path: string | ":memory:"): Database {
    return guard(() => {
      // Deno.mkdirSync, not node:fs: importing node:fs alone costs ~25 ms of every start.
      if (path !== ":memory:") Deno.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      const db = new DatabaseSync(path);
      db.exec("PRAGMA busy_timeout = 5000");
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
      db.exec("PRAGMA foreign_keys = ON");
      const store = new Database(db);
      store.#migrate();
      return store;
    });
  }

  /** The journal mode SQLite reports (`wal` for a file, `memory` for an in-memory database). */
  journalMode(): string {
    return String(this.get<{ journal_mode: string }>("PRAGMA journal_mode")?.journal_mode);
  }

  /** Runs `work` in one immediate transaction, committed once it has settled, rolled back when it throws. */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    guard(() => this.#db.exec("BEGIN IMMEDIATE"));
    let result: T;
    try {
      result = await work();
      guard(() => this.#db.exec("COMMIT"));
    } catch (error) {
      // Also after a failed COMMIT (a full disk, say): an open transaction would refuse every later BEGIN.
      if (this.#db.isTransaction) {
        try {
          this.#db.exec("ROLLBACK");
        } catch {
          // The error that made us roll back is the one to report.
        }
      }
      throw error;
    }
    return result;
  }

  /** Executes a statement that returns no rows. */
  run(sql: string, ...params: SqlValue[]): void {
    guard(() => this.#prepare(sql).run(...params));
  }

  /** The first row of a query, or undefined. */
  get<T>(sql: string, ...params: SqlValue[]): T | undefined {
    return guard(() => this.#prepare(sql).get(...params) as T | undefined);
  }

  /** Every row of a query. */
  all<T>(sql: string, ...params: SqlValue[]): T[] {
    return guard(() => this.#prepare(sql).all(...params) as T[]);
  }

  /** Closes the database. */
  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  #prepare(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #migrate(): void {
    const version = Number(this.get<{ user_version: number }>("PRAGMA user_version")?.user_version ?? 0);
    if (version > MIGRATIONS.length) {
      throw new WeftError("STORAGE_ERROR", "The store was written by a newer weft; upgrade weft to open it.");
    }
    for (let index = version; index < MIGRATIONS.length; index++) {
      this.#db.exec("BEGIN IMMEDIATE");
      try {
        this.#db.exec(MIGRATIONS[index]);
        this.#db.exec(`PRAGMA user_version = ${index + 1}`);
        this.#db.exec("COMMIT");
      } catch (error) {
        this.#db.exec("ROLLBACK");
        throw error;
      }
    }
  }
}

/** A value SQLite can bind. */
export type SqlValue = string | number | bigint | null | Uint8Array;

function guard<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof WeftError) throw error;
    const code = (error as { code?: unknown; errcode?: unknown })?.code;
    if (code !== "ERR_SQLITE_ERROR") throw error;
    if ((error as { errcode?: number }).errcode === 5) {
      throw new WeftError("BUSY", "The store is busy; retry shortly.", { cause: error });
    }
    throw new WeftError("STORAGE_ERROR", "The store could not complete the operation.", { cause: error });
  }
}
