/**
 * Where a team store lives, as a person configured it, and how it is named in every message: host, port,
 * database and user, never a password (one written into a connection string is dropped from what is shown).
 *
 * @module
 */
import { WeftError } from "../../errors.ts";

/** A team database a project's weft uses: a connection string and the project key the database must hold. */
export interface TeamDatabase {
  /** `postgres://[user@]host[:port]/database[?options]`; a password here works but is never shown. */
  url: string;
  /** The role to connect as when the connection string names none (else `PGUSER`, else the login name). */
  user?: string;
  /** The project the database holds: every teammate's weft names the same key, and a mismatch is refused. */
  project: string;
}

/** The connection string with the configured user filled in, for the driver only. */
export function connectionString(target: TeamDatabase): string {
  const url = parse(target.url);
  if (target.user && !url.username) url.username = encodeURIComponent(target.user);
  return url.href;
}

/** The database as messages name it: `postgres://user@host:port/database`, no password, no options. */
export function describeTarget(target: Pick<TeamDatabase, "url" | "user">): string {
  let url: URL;
  try {
    url = parse(target.url);
  } catch {
    return "a team database (its connection string cannot be read)";
  }
  const user = url.username ? decodeURIComponent(url.username) : target.user;
  const port = url.port ? `:${url.port}` : "";
  return `postgres://${user ? `${user}@` : ""}${url.hostname}${port}${url.pathname}`;
}

/** Parses a connection string; `CONFIGURATION_REQUIRED` (naming no part of it) when it is not one. */
function parse(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw notAConnectionString();
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") throw notAConnectionString();
  return url;
}

function notAConnectionString(): WeftError {
  return new WeftError(
    "CONFIGURATION_REQUIRED",
    "The team database is not a PostgreSQL connection string (postgres://host:port/database).",
  );
}
