/**
 * The main module a client starts the service from when weft runs from a checkout (`service_main.ts serve …`,
 * as `main.ts serve …`): it reaches `serve`'s modules only, so Deno neither reads nor keeps the sources of every
 * other command's. Whatever the service prints for a person to paste still names `main.ts`
 * (`src/client/self_command.ts`).
 *
 * @module
 */

import { serveCommand } from "./commands/serve.ts";
import { EXIT } from "./command_line/exit_codes.ts";
import { say } from "./terminal/screen.ts";

/** Runs `serve` with the arguments after its name; any other command is a usage error. */
export async function serviceMain(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === serveCommand.name) return await serveCommand.main(rest);
  say(`this module runs \`serve\` only; run main.ts for \`${name ?? ""}\``, Deno.stderr);
  return EXIT.USAGE;
}

if (import.meta.main) Deno.exit(await serviceMain(Deno.args));
