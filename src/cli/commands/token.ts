/**
 * `weft token`: prints the external (IDE) token of a project, the value of `WEFT_TOKEN` for an IDE that
 * connects over HTTP. It is printed only when a person asks for it, and nothing else ever prints it.
 *
 * @module
 */

import { recordedConnection } from "../../client/recorded_connection.ts";
import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { TOKEN_VARIABLE } from "./config.ts";
import { say } from "../terminal/screen.ts";
import { visibleJson } from "../../lib/visible_text.ts";

/** `weft token` */
export const tokenCommand = defineCommand({
  name: "token",
  summary: "print the IDE token, for the HTTP form of `weft config`",
  synopsis: "token",
  description: `Prints the IDE token of the project's service, for the HTTP form of \`weft config\`:
  export ${TOKEN_VARIABLE}="$(weft token)"
Treat it like a password. The stdio form (\`weft mcp\`) needs no token.`,
  json: 'print { "token": "…" }',
  async run({ projectDir, positionals, json }) {
    if (positionals.length) {
      throw new UsageError("takes no arguments (a project is named with --project DIR)");
    }
    const connection = await recordedConnection(projectDir, "no token yet");
    if (json) say(visibleJson({ token: connection.externalToken }));
    else say(connection.externalToken);
    return EXIT.OK;
  },
});
