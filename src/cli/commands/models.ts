/**
 * `weft models`: the service's model roles as weft.json and the user-level file configure them, without
 * touching the network (`weft doctor` asks each server).
 *
 * @module
 */

import { UsageError } from "../args.ts";
import { defineCommand } from "../command.ts";
import { EXIT } from "../exit_codes.ts";
import { indent, paint, printJson, table } from "../format.ts";
import { ModelConfig } from "../../model/config.ts";

/** `weft models` */
export const modelsCommand = defineCommand({
  name: "models",
  summary: "list the service's model roles and whether each is ready",
  synopsis: "models",
  description: `Lists the service's model roles: default and the named ones, each with its provider and model,
the file its entry came from (the project's weft.json wins a role whole over the user file) and the
variable holding its key (whether it is set in this shell). Nothing is sent over the network: \`weft
doctor\` asks each server whether it answers and knows the model. docs/models.md explains the format.`,
  json: 'print { "roles": RoleReadiness[], "files": { "project", "user" } }',
  run({ positionals, projectDir, json }) {
    if (positionals.length) throw new UsageError("takes no arguments");
    const config = ModelConfig.read(projectDir);
    const roles = config.roles().map((role) => config.readiness(role));
    const files = { project: config.locations.projectFile, user: config.locations.userFile };
    if (json) {
      printJson({ roles, files });
      return Promise.resolve(EXIT.OK);
    }
    console.log(table(
      ["ROLE", "STATE", "PROVIDER", "MODEL", "FROM", "KEY"],
      roles.map((role) => [
        paint("bold", role.role),
        role.ready ? paint("green", "ready") : paint("yellow", "not ready"),
        role.provider ?? "–",
        role.model ?? "–",
        role.origin === "project" ? "weft.json" : role.origin === "user" ? "user file" : "–",
        role.apiKeyEnv ? `${role.apiKeyEnv} (${role.keySet ? "set" : "not set"})` : "none",
      ]),
    ));
    for (const role of roles.filter((role) => role.reason)) {
      console.log(`\n${paint("yellow", role.role)}: not ready`);
      console.log(indent(role.reason!));
    }
    console.log(`\nproject file: ${files.project}\nuser file:    ${files.user}`);
    return Promise.resolve(EXIT.OK);
  },
});
