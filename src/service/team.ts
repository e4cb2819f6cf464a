/**
 * The team database of a project, as `weft team` sees it: the person's configuration for the project, then
 * the database itself, set up (migrated, its project key confirmed) and reported.
 *
 * @module
 */
import { WeftError } from "../errors.ts";
import { configLocations } from "../model/config.ts";
import { configuredTeamDatabase } from "../model/team_config.ts";
import type { TeamDatabaseConfig } from "../model/team_config.ts";
import type { TeamReport } from "../store/postgres/team_inspection.ts";
import type { ImportCounts } from "../store/postgres/sqlite_import.ts";
import { verifyWeftDir } from "../weft_dir/trust.ts";
import { weftPaths } from "../weft_dir/paths.ts";

export type { ImportCounts, TeamReport };

/**
 * Sets up and reports the team database configured for the project at `projectDir`;
 * `CONFIGURATION_REQUIRED` when none is configured.
 */
export async function teamDatabaseReport(
  projectDir: string,
  env: (name: string) => string | undefined,
): Promise<TeamReport> {
  const { inspectTeamDatabase } = await import("../store/postgres/team_inspection.ts");
  return await inspectTeamDatabase(requiredTeam(projectDir, env));
}

/**
 * Moves the project's local history (its `.weft/` store) into its team database, all or nothing. Only a
 * `.weft/` weft made for this person is read: a planted one (a repository's) is refused, never imported.
 */
export async function importLocalHistory(
  projectDir: string,
  env: (name: string) => string | undefined,
): Promise<ImportCounts> {
  const team = requiredTeam(projectDir, env);
  const paths = weftPaths(projectDir);
  await verifyWeftDir(paths, { readOnly: true });
  const { importSqliteHistory } = await import("../store/postgres/sqlite_import.ts");
  return await importSqliteHistory(paths.database, team);
}

function requiredTeam(projectDir: string, env: (name: string) => string | undefined): TeamDatabaseConfig {
  const projectPath = Deno.realPathSync(projectDir);
  const team = configuredTeamDatabase(projectPath, configLocations(projectPath, env).userFile, env);
  if (!team) {
    throw new WeftError(
      "CONFIGURATION_REQUIRED",
      "This project has no team database: it keeps its Runs in .weft/ (SQLite).",
    );
  }
  return team;
}
