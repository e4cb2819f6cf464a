/**
 * `weft mcp`: the stdio MCP server an IDE launches, bridged to this project's service (`src/client/bridge.ts`
 * forwards, starts the service when it does not run, and joins it again after a restart).
 *
 * @module
 */

import { Bridge } from "../../client/bridge.ts";
import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";

/** `weft mcp [--project DIR] [--codex]` */
export const mcpCommand = defineCommand({
  name: "mcp",
  summary: "speak MCP on stdin/stdout for an IDE, bridged to the project's service",
  synopsis: "mcp [--codex]",
  description: `Speaks MCP over stdin/stdout for an IDE and forwards it to this project's service (/mcp, or
/mcp/codex with --codex), starting the service in the background when it does not run. Ends when
stdin closes, once the requests already sent have their answers (it waits up to 30 s for them).
\`weft config <ide>\` prints the entry that launches it.`,
  options: { codex: { type: "boolean", help: "use the Codex presentation endpoint (/mcp/codex)" } },
  json: "(stdout carries MCP; only a failure to start is printed as JSON)",
  async run({ projectDir, options, positionals }) {
    if (positionals.length) {
      throw new UsageError("takes no arguments (a project is named with --project DIR)");
    }
    await new Bridge(projectDir, options.codex).run();
    return EXIT.OK;
  },
});
