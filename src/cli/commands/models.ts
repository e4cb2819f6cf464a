/**
 * `weft models`: the service's model roles as weft.json and the user-level file configure them, without
 * touching the network (`weft doctor` asks each server).
 *
 * @module
 */

import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { indent, paint, printJson, table } from "../terminal/format.ts";
import { inspectModels } from "../../service/inspect.ts";
import { say } from "../terminal/screen.ts";

/** `weft models` */
export const modelsCommand = defineCommand({
  name: "models",
  summary: "list the service's model roles and whether each is ready",
  synopsis: "models",
  description: `Lists the service's model roles: default and the named ones, each with its provider, model
and URL, the file its entry came from (the project's weft.json wins a role whole over the user
file once you trust it: \`weft trust\`) and the variable holding its key (whether it is set in this
shell). Nothing is sent over the network: \`weft doctor\` asks each server whether it answers and
knows the model. docs/models.md explains the format.`,
  json:
    'print { "roles": RoleReadiness[], "files": { "project", "user", "trust" }, "trust": { state, digest } }',
  run({ positionals, projectDir, json }) {
    if (positionals.length) throw new UsageError("takes no arguments");
    const models = inspectModels(projectDir);
    const roles = models.roles.map(({ configured: _c, resolves: _r, ...readiness }) => readiness);
    const { files } = models;
    const { state, digest } = models.trust;
    if (json) {
      printJson({ roles, files, trust: { state, digest } });
      return Promise.resolve(EXIT.OK);
    }
    say(table(
      ["ROLE", "STATE", "PROVIDER", "MODEL", "URL", "FROM", "KEY"],
      roles.map((role) => [
        paint("bold", role.role),
        role.ready
          ? paint("green", "ready")
          : paint("yellow", role.trusted === false ? "not trusted" : "not ready"),
        role.provider ?? "–",
        role.model ?? "–",
        role.baseURL ?? "–",
        role.origin === "project"
          ? `weft.json (${role.trusted ? "trusted" : "not trusted"})`
          : role.origin === "user"
          ? "user file"
          : "–",
        role.apiKeyEnv
          ? `${role.apiKeyEnv}${role.keySet === undefined ? "" : role.keySet ? " (set)" : " (not set)"}`
          : "none",
      ]),
    ));
    for (const role of roles.filter((role) => role.reason)) {
      say(`\n${paint("yellow", role.role)}: ${role.trusted === false ? "not trusted" : "not ready"}`);
      say(indent(role.reason!));
    }
    if (state === "not_trusted") {
      say(
        `\nweft.json's models are not trusted, so none of them is used or dialled and your user file applies ` +
          "to every role it names;\n`weft trust` shows them and asks",
      );
    }
    say(`\nproject file: ${files.project}\nuser file:    ${files.user ?? "(none: HOME is not set)"}`);
    return Promise.resolve(EXIT.OK);
  },
});
