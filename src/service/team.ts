/**
 * The team database of a project, as `weft team` sees it: the person's configuration for the project, then
 * the database itself, set up (migrated, its project key confirmed) and reported.
 *
 * @module
 */
import { WeftError } from "../errors.ts";
import { configLocations } from "../model/config.ts";
import { configuredTeamDatabase } from "../model/team_config.ts";
import type { TeamReport } from "../store/postgres/team_inspection.ts";

export type { TeamReport };

/**
 * Sets up and reports the team database configured for the project at `projectDir`;
 * `CONFIGURATION_REQUIRED` when none is configured.
 */
export async function teamDatabaseReport(
  projectDir: string,
  env: (name: string) => string | undefined,
): Promise<TeamReport> {
  const projectPath = Deno.realPathSync(projectDir);
  const team = configuredTeamDatabase(projectPath, configLocations(projectPath, env).userFile, env);
  if (!team) {
    throw new WeftError(
      "CONFIGURATION_REQUIRED",
      "This project has no team database: it keeps its Runs in .weft/ (SQLite).",
    );
  }
  const { inspectTeamDatabase } = await import("../store/postgres/team_inspection.ts");
  return await inspectTeamDatabase(team);
}
