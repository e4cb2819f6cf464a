/**
 * The command that runs this same program, as a client starts the service with it (`weft serve`) and the CLI
 * builds the commands a person pastes from it.
 *
 * @module
 */

import { basename } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The V8 flag a service started from a checkout or a bundle runs with: a young generation of 2 × 1 MB, V8's
 * own starting size, which it otherwise grows to 2 × 32 MB while allocation is brisk (every call parses and
 * builds messages) and keeps at rest. Unlike a heap growth flag, this one leaves V8's code cache valid for
 * unflagged processes, so the commands that share the service's modules keep their cache.
 */
export const SERVICE_V8_FLAGS = "--v8-flags=--max-semi-space-size=1";

/**
 * The command that runs this same program: the compiled binary itself, or `deno run -A <main module>` when
 * running from source or from a bundle, with `denoFlags` before the module (the compiled binary has its V8
 * flags built in and takes none).
 */
export function selfCommand(denoFlags: readonly string[] = []): { command: string; args: string[] } {
  const exec = Deno.execPath();
  if (!runningUnderDeno(exec)) return { command: exec, args: [] };
  return { command: exec, args: ["run", "-A", ...denoFlags, mainModulePath()] };
}

/** The command that runs the service on someone's behalf: {@linkcode selfCommand} with {@linkcode SERVICE_V8_FLAGS}. */
export function serviceCommand(): { command: string; args: string[] } {
  return selfCommand([SERVICE_V8_FLAGS]);
}

function runningUnderDeno(exec: string): boolean {
  return /^deno(\.exe)?$/i.test(basename(exec));
}

function mainModulePath(): string {
  return Deno.mainModule.startsWith("file:") ? fileURLToPath(Deno.mainModule) : Deno.mainModule;
}
