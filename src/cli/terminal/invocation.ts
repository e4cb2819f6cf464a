/**
 * How a person invokes this weft where they are, for every command the CLI prints for them to paste (hints,
 * fix lines) and for IDE configurations: the compiled `weft`, or Deno through npx running this checkout's (or
 * bundle's) main module, and `--project DIR` when the project is not the working directory.
 *
 * @module
 */

import { basename, delimiter, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { selfCommand } from "../../client/self_command.ts";

/**
 * The command an IDE's configuration can keep: the compiled `weft` itself, the `weft` that `deno install`
 * put on PATH for this very checkout, or else Deno through npx at this very version, running this checkout's
 * (or bundle's) main module. The `deno` running now may be a file in npx's cache, which can be gone
 * tomorrow, and no `deno` need be on PATH.
 */
export function lastingCommand(): { command: string; args: string[] } {
  const self = selfCommand();
  if (!self.args.length) return self;
  const wrapper = installedWrapper(self.args.at(-1)!);
  if (wrapper) return { command: wrapper, args: [] };
  return { command: "npx", args: ["-y", `deno@${Deno.version.deno}`, ...self.args] };
}

/** The largest file read as a possible `deno install` wrapper: the one it writes is a few hundred bytes. */
const WRAPPER_MAX_BYTES = 4096;

/**
 * The `weft` a shell finds first on PATH when it is a `deno install` wrapper that runs the main module
 * `main` (what a checkout's README installs), else undefined: only then does `weft …` run this program.
 */
function installedWrapper(main: string): string | undefined {
  const url = main.includes("://") ? main : pathToFileURL(main).href;
  for (const dir of (Deno.env.get("PATH") ?? "").split(delimiter)) {
    if (dir === "") continue;
    const path = join(dir, "weft");
    try {
      const info = Deno.statSync(path);
      if (!info.isFile) continue;
      if (info.size > WRAPPER_MAX_BYTES) return undefined;
      const text = Deno.readTextFileSync(path);
      return text.startsWith("#!") && text.includes(`'${url}'`) ? path : undefined;
    } catch {
      continue;
    }
  }
  return undefined;
}

/**
 * The project of the command being run, set by `defineCommand` for the time the command runs: every command
 * a command prints for a person concerns that project, wherever in the output it is printed.
 */
let project: string | undefined;

/** Records the project the running command works on, or (undefined) that it has ended. */
export function useProject(projectDir: string | undefined): void {
  project = projectDir === undefined ? undefined : resolve(projectDir);
}

/** The project of the running command, when one was recorded. */
export function currentProject(): string | undefined {
  return project;
}

/**
 * `args` (the command line after `weft`, e.g. `attach run_1`) as a person pastes it here: prefixed with how
 * weft is invoked, and followed by `--project DIR` when the project is not the working directory. Outside a
 * command (a test calling the formatting in-process) it is `weft …` as written.
 */
export function weftCommand(args: string): string {
  if (!project) return `weft ${args}`;
  const words = [...invocation(), args];
  if (project !== resolve(Deno.cwd()) && !/(^|\s)--project\s/.test(args)) {
    words.push("--project", shellWord(project));
  }
  return words.join(" ");
}

/** Every `` `weft …` `` quoted in `text` (a fix line) rewritten by {@linkcode weftCommand}. */
export function pasteableText(text: string): string {
  return text.replace(/`weft ([^`]*)`/g, (_, args: string) => `\`${weftCommand(args)}\``);
}

/** The words that start weft: `weft` when the compiled program is found as such on PATH. */
function invocation(): string[] {
  const self = lastingCommand();
  if (!self.args.length) return [onPath(self.command) ? basename(self.command) : shellWord(self.command)];
  // The main module is named relative to the working directory when it lies within it (`main.ts`).
  const [main, ...before] = [self.args.at(-1)!, ...self.args.slice(0, -1)];
  const near = relative(Deno.cwd(), main);
  const shown = near && !near.startsWith("..") ? near : main;
  return [self.command, ...before, shellWord(shown)];
}

/** Whether `path` is what its name finds on PATH. */
function onPath(path: string): boolean {
  const name = basename(path);
  return (Deno.env.get("PATH") ?? "").split(delimiter).some((dir) => {
    try {
      return dir !== "" && Deno.realPathSync(join(dir, name)) === Deno.realPathSync(path);
    } catch {
      return false;
    }
  });
}

/** `word` as one word of a POSIX shell: quoted only when it holds anything but plain path characters. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`;
}
