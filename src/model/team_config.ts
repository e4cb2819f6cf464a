/**
 * Which team database a person's weft uses for a project: the environment (`WEFT_DATABASE_URL` with
 * `WEFT_PROJECT_KEY`) or the user-level file's `team` entry for the project's real path. Never the project's
 * own files: a repository cannot send a person's Runs to a database of its choosing. Credentials never come
 * from here either: the password from `PGPASSWORD` or `~/.pgpass` (the driver reads them), so a connection
 * string with a password in the user file is refused. Without any of this the project stays on SQLite.
 *
 * @module
 */
import { z } from "../lib/zod.ts";
import { WeftError } from "../errors.ts";

/** What a project key may look like: a short name a person types and reads. */
export const PROJECT_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const TeamEntry = z.strictObject({
  database: z.string().min(1).max(1000).describe(
    "the team's PostgreSQL database, postgres://host:port/database (the password from PGPASSWORD or ~/.pgpass)",
  ),
  user: z.string().min(1).max(63).optional().describe("the role to connect as; default PGUSER or your login"),
  project: z.string().regex(PROJECT_KEY, "must be a short name such as `shop`").describe(
    "the project key the database holds; every teammate names the same one",
  ),
});

/** The user-level file's `team` field: one entry per project, by the project folder's absolute real path. */
export const TeamSettings = z.record(z.string().min(1), TeamEntry).describe(
  "team databases by project folder (absolute path); read from the user-level file only",
);

/** A configured team database (the store's `TeamDatabase`). */
export interface TeamDatabaseConfig {
  url: string;
  user?: string;
  project: string;
}

/**
 * The team database configured for the project at real path `projectPath`, or undefined (SQLite).
 * `CONFIGURATION_REQUIRED` when a configuration is there but unusable, naming no secret.
 */
export function configuredTeamDatabase(
  projectPath: string,
  userFile: string | undefined,
  env: (name: string) => string | undefined,
): TeamDatabaseConfig | undefined {
  const url = env("WEFT_DATABASE_URL");
  if (url) {
    const project = env("WEFT_PROJECT_KEY");
    if (!project || !PROJECT_KEY.test(project)) {
      throw required("WEFT_DATABASE_URL is set: set WEFT_PROJECT_KEY to the project key the database holds");
    }
    return { url, project };
  }
  if (userFile === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(Deno.readTextFileSync(userFile));
  } catch {
    // Absent, or broken: its problems are `weft doctor`'s to report; such a file names no team database.
    return undefined;
  }
  const team = (raw as { team?: unknown } | null)?.team;
  if (team === undefined) return undefined;
  const parsed = TeamSettings.safeParse(team);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw required(`the user-level weft.json: team.${issue.path.join(".")}: ${issue.message}`);
  }
  const entry = Object.hasOwn(parsed.data, projectPath) ? parsed.data[projectPath] : undefined;
  if (!entry) return undefined;
  let database: URL;
  try {
    database = new URL(entry.database);
  } catch {
    throw required("the user-level weft.json: the team database is not a postgres:// connection string");
  }
  if (database.password || database.searchParams.has("password")) {
    throw required(
      "the user-level weft.json: a password is never written in a file; put it in ~/.pgpass or PGPASSWORD",
    );
  }
  return { url: entry.database, project: entry.project, ...(entry.user ? { user: entry.user } : {}) };
}

function required(message: string): WeftError {
  return new WeftError("CONFIGURATION_REQUIRED", `Team database: ${message}.`);
}
