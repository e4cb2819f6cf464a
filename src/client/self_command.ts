/**
 * The command that runs this same program, as a client starts the service with it (`weft serve`) and the CLI
 * builds the commands a person pastes from it.
 *
 * @module
 */

import { basename } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The command that runs this same program: the compiled binary itself, or `deno run -A <main module>` when
 * running from source or from a bundle.
 */
export function selfCommand(): { command: string; args: string[] } {
  const exec = Deno.execPath();
  const runningUnderDeno = /^deno(\.exe)?$/i.test(basename(exec));
  if (!runningUnderDeno) return { command: exec, args: [] };
  const main = Deno.mainModule.startsWith("file:") ? fileURLToPath(Deno.mainModule) : Deno.mainModule;
  return { command: exec, args: ["run", "-A", main] };
}
