/**
 * What `weft team` reports of a team database: where it is, the project it holds, its schema version, how
 * many Runs it keeps, and which weft services are connected to it now (by the server's own list of sessions,
 * so a service that died is gone from it as soon as its connection is).
 *
 * @module
 */
import type { TeamDatabase } from "./connection_target.ts";
import { APPLICATION_PREFIX, PostgresDatabase } from "./postgres_database.ts";
import { PG_MIGRATIONS } from "./postgres_migrations.ts";

/** One connected weft service. */
export interface ConnectedService {
  /** `service alice@laptop pid 4242`, as the service introduced itself. */
  name: string;
  /** When its oldest open connection began (ISO 8601). */
  since: string;
}

/** A team database as `weft team` shows it. */
export interface TeamReport {
  database: string;
  project: string;
  schemaVersion: number;
  runs: number;
  services: ConnectedService[];
}

/** Connects (migrating and confirming the project, as a service would) and reports the database. */
export async function inspectTeamDatabase(target: TeamDatabase): Promise<TeamReport> {
  const db = await PostgresDatabase.open(target, "team");
  try {
    return await db.read(async (sql) => {
      const runs = await sql.get<{ n: string }>("SELECT COUNT(*) AS n FROM runs");
      const services = await sql.all<{ name: string; since: Date }>(
        `SELECT substr(application_name, $1) AS name, MIN(backend_start) AS since FROM pg_stat_activity
         WHERE datname = current_database() AND application_name LIKE $2 GROUP BY application_name ORDER BY 2`,
        APPLICATION_PREFIX.length + 1,
        `${APPLICATION_PREFIX}service %`,
      );
      return {
        database: db.described,
        project: target.project,
        schemaVersion: PG_MIGRATIONS.length,
        runs: Number(runs?.n ?? 0),
        services: services.map((row) => ({ name: row.name, since: new Date(row.since).toISOString() })),
      };
    });
  } finally {
    await db.close();
  }
}
