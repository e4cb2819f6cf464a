/**
 * `weft token`: prints the external (IDE) token of a project, the value of `WEFT_TOKEN` for an IDE that
 * connects over HTTP. It is printed only when a person asks for it, and nothing else ever prints it.
 *
 * @module
 */

import { readConnection } from "../weft_dir/connection.ts";
import { weftPaths } from "../weft_dir/paths.ts";
import { parseCommand } from "./args.ts";
import { EXIT } from "./exit_codes.ts";
import { TOKEN_VARIABLE } from "./ide_config.ts";

/** `weft token [--project DIR]` */
export async function tokenCommand(args: string[]): Promise<number> {
  const { common } = parseCommand(args);
  if (common.help) {
    console.log(`Usage: weft token [--project DIR]

Prints the IDE token of the project's service, for the HTTP form of \`weft config\`:
  export ${TOKEN_VARIABLE}="$(weft token)"
Treat it like a password. The stdio form (\`weft mcp\`) needs no token.`);
    return EXIT.OK;
  }
  const connection = await readConnection(weftPaths(common.projectDir));
  if (!connection) {
    console.error("weft token: no token yet; run `weft start` once for this project");
    return EXIT.OFFLINE;
  }
  console.log(connection.externalToken);
  return EXIT.OK;
}
