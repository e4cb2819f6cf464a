/**
 * `weft team`: sets up the team database the person configured for this project (creates or upgrades its
 * tables, confirms the project it holds) and says who else is connected to it.
 *
 * @module
 */
import { noArguments, UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { importLocalHistory, teamDatabaseReport } from "../../service/team.ts";
import { visibleJson } from "../../lib/visible_text.ts";
import { say } from "../terminal/screen.ts";

/** `weft team` */
export const teamCommand = defineCommand({
  name: "team",
  summary: "set up and check the project's team database, and say who is connected",
  synopsis: "team [import]",
  description: `Connects to the team database configured for this project (WEFT_DATABASE_URL and
WEFT_PROJECT_KEY, or the "team" entry of your user-level weft.json; the password from PGPASSWORD or
~/.pgpass), creates or upgrades its tables, confirms that it holds this project, and lists the weft services
connected to it now. docs/team.md says how to set one up.

\`weft team import\` moves the project's local history (.weft/weft.db: Runs, timelines, Artifacts, Records,
workflow versions, publications) into the team database, all or nothing; it refuses when any of it is there
already. The local history stays as it was.`,
  json: 'print { "database", "project", "schemaVersion", "runs", "services": [{ "name", "since" }] }; ' +
    'import: { "moved": { "runs", "events", "artifacts", "records", "definitions" } }',
  fixes: {
    CONFIGURATION_REQUIRED: "name the team database in WEFT_DATABASE_URL and WEFT_PROJECT_KEY, or in your " +
      "user-level weft.json (docs/team.md), and its password in ~/.pgpass",
    STORAGE_ERROR: "check that the database server runs and is reachable, then run `weft team` again",
  },
  async run({ projectDir, positionals, json }) {
    if (positionals[0] === "import") {
      noArguments(positionals.slice(1));
      const moved = await importLocalHistory(projectDir, (name) => Deno.env.get(name));
      if (json) say(visibleJson({ moved }));
      else {
        say(
          `moved ${moved.runs} Runs (${moved.events} timeline entries), ${moved.artifacts} Artifacts, ` +
            `${moved.records} Records and ${moved.definitions} workflow versions into the team database`,
        );
      }
      return EXIT.OK;
    }
    if (positionals.length) {
      throw new UsageError(`unknown subcommand "${positionals[0]}"; try \`weft team import\``);
    }
    const report = await teamDatabaseReport(projectDir, (name) => Deno.env.get(name));
    if (json) {
      say(visibleJson(report));
      return EXIT.OK;
    }
    say(`team database  ${report.database}`);
    say(
      `project        ${report.project}  (schema ${report.schemaVersion}, ${report.runs} Runs)`,
    );
    if (report.services.length === 0) say("connected      no weft service");
    for (const [index, service] of report.services.entries()) {
      const label = index === 0 ? "connected     " : "              ";
      say(`${label} ${service.name}  since ${service.since}`);
    }
    return EXIT.OK;
  },
});
