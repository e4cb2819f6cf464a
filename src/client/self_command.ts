/**
 * The command that runs this same program, as a client starts the service with it (`weft serve`) and the CLI
 * builds the commands a person pastes from it.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The V8 flag a service started from a checkout or a bundle runs with: a young generation of 2 × 1 MB, V8's
 * own starting size, which it otherwise grows to 2 × 32 MB while allocation is brisk (every call parses and
 * builds messages) and keeps at rest. Unlike a heap growth flag, this one leaves V8's code cache valid for
 * unflagged processes, so the commands that share the service's modules keep their cache.
 */
export const SERVICE_V8_FLAGS = "--v8-flags=--max-semi-space-size=1";

/**
 * The Deno flag a service started from a checkout runs with when the checkout has its `node_modules/`: Deno
 * takes the npm packages from that folder as it finds it. With `nodeModulesDir: "auto"` it would first read the
 * registry records of the import map's packages (~1.7 MB of JSON, `ai` and `zod` the largest) to check the
 * folder against the lockfile, and keep what it parsed for the life of the process (~7 MB more resident at
 * rest). The client that starts the service ran from the same checkout in `"auto"` mode, and Deno installs every
 * package of `main.ts`'s module graph (the service's included) before any of the client runs, so the folder is
 * complete.
 */
export const SERVICE_NODE_MODULES_FLAG = "--node-modules-dir=manual";

/**
 * The `malloc` setting a started service runs with, unless the environment sets its own: one arena for all
 * threads. glibc gives each thread that allocates at once with another its own arena (up to 8 per core), and
 * every arena keeps what it once held; the service's other threads (V8's workers, Deno's blocking pool)
 * allocate little, so one arena saves ~1 MB at rest (and some of the peak under load) for a CPU cost per call
 * within the soak's noise (docs/performance.md). Other C libraries ignore it.
 */
export const SERVICE_MALLOC_ARENAS = { MALLOC_ARENA_MAX: "1" } as const;

/** The environment a started service adds to its client's: {@linkcode SERVICE_MALLOC_ARENAS}, unless `env` sets it. */
export function serviceEnv(
  env: { get(name: string): string | undefined } = Deno.env,
): Record<string, string> {
  return env.get("MALLOC_ARENA_MAX") === undefined ? { ...SERVICE_MALLOC_ARENAS } : {};
}

/**
 * The Deno flags a service started on someone's behalf runs with: {@linkcode SERVICE_V8_FLAGS}, and
 * {@linkcode SERVICE_NODE_MODULES_FLAG} when `node_modules/` sits beside the main module `mainPath` (a
 * checkout; a bundle has no npm imports and a checkout run without that folder keeps Deno's default).
 */
export function serviceDenoFlags(mainPath: string = mainModulePath()): string[] {
  return isFolder(join(dirname(mainPath), "node_modules"))
    ? [SERVICE_V8_FLAGS, SERVICE_NODE_MODULES_FLAG]
    : [SERVICE_V8_FLAGS];
}

/**
 * The command that runs this same program: the compiled binary itself, or `deno run -A <main module>` when
 * running from source or from a bundle, with `denoFlags` before the module (the compiled binary has its V8
 * flags built in and takes none); `module` is the program's main module unless given.
 */
export function selfCommand(
  denoFlags: readonly string[] = [],
  module: string = mainModulePath(),
): { command: string; args: string[] } {
  const exec = Deno.execPath();
  if (!runningUnderDeno(exec)) return { command: exec, args: [] };
  return { command: exec, args: ["run", "-A", ...denoFlags, module] };
}

/**
 * The command that runs the service on someone's behalf: {@linkcode selfCommand} with
 * {@linkcode serviceDenoFlags}, and the environment it adds ({@linkcode serviceEnv}).
 */
export function serviceCommand(): { command: string; args: string[]; env: Record<string, string> } {
  const main = mainModulePath();
  return { ...selfCommand(serviceDenoFlags(main), serviceMainPath(main)), env: serviceEnv() };
}

/** This checkout's `main.ts`, as this module finds it when weft runs from source. */
const CHECKOUT_MAIN = new URL("../../main.ts", import.meta.url);

/** The service's own main module in this checkout (`src/cli/service_main.ts`). */
const SERVICE_MAIN = new URL("../cli/service_main.ts", import.meta.url);

/**
 * The module a client runs the service from, given the program's main module `mainPath`: this checkout's
 * service main module when `mainPath` is this checkout's `main.ts` (a bundle or any other program runs itself).
 * It reaches `serve`'s modules only: Deno keeps the source of every module a main module's graph reaches for
 * the life of the process, every command's included (~1 MB of a service at rest, docs/performance.md).
 */
export function serviceMainPath(mainPath: string): string {
  return CHECKOUT_MAIN.protocol === "file:" && mainPath === fileURLToPath(CHECKOUT_MAIN)
    ? fileURLToPath(SERVICE_MAIN)
    : mainPath;
}

// Not node:fs's existsSync: importing node:fs would cost every command that starts the service (the bridge
// of `weft mcp` included) several milliseconds.
function isFolder(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

function runningUnderDeno(exec: string): boolean {
  return /^deno(\.exe)?$/i.test(basename(exec));
}

/** The program's main module: a service started from its own main module names `main.ts`, as a person runs it. */
function mainModulePath(): string {
  const main = Deno.mainModule === SERVICE_MAIN.href ? CHECKOUT_MAIN.href : Deno.mainModule;
  return main.startsWith("file:") ? fileURLToPath(main) : main;
}
