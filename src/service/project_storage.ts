/**
 * The storage a service opens for its project: the team database the person configured for it, or else the
 * embedded SQLite store under `.weft/`. The team store's driver is loaded only when one is configured, so a
 * service on SQLite never pays for it at start.
 *
 * @module
 */
import type { Storage } from "../engine/storage.ts";
import { configLocations } from "../model/config.ts";
import { configuredTeamDatabase } from "../model/team_config.ts";
import { openSqliteStorage } from "../store/sqlite_storage.ts";

/** Opens the project's storage; `CONFIGURATION_REQUIRED` or `STORAGE_ERROR` when a team store cannot be used. */
export async function openProjectStorage(
  projectRoot: string,
  database: string,
  env: (name: string) => string | undefined,
  log: (event: Record<string, unknown>) => void,
): Promise<Storage> {
  const team = configuredTeamDatabase(projectRoot, configLocations(projectRoot, env).userFile, env);
  if (!team) return openSqliteStorage(database);
  const { openPostgresStorage } = await import("../store/postgres/postgres_storage.ts");
  const storage = await openPostgresStorage(team);
  // Named without its password (the store's description), so the log can say where Runs now live.
  log({ database: storage.described, project: team.project });
  return storage;
}
