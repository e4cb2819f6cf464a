/**
 * The one way weft runs git. A project's `.git/` came with the project (an archive, a shared folder, a copied
 * checkout), so it is as untrusted as its files, and so is a repository above the project: its configuration
 * (with every file it includes) can name programs git would run: `core.fsmonitor`, hooks under
 * `core.hooksPath` or `.git/hooks/` (`post-index-change`, `reference-transaction`, …),
 * `filter.<driver>.clean`/`smudge`/`process` for the files `.gitattributes` names, `diff.external` and
 * `diff.<driver>.command`/`textconv`, `core.pager`, `core.sshCommand`, credential helpers, a remote's
 * `uploadpack` reached by a partial clone's lazy fetch, `gc.auto`'s hooks. Every call turns each of them off
 * by exact key through `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n` (which win over any file
 * and, unlike `-c`, take no `=` apart, so a driver named `a=b` is emptied like any other). No transport may
 * run at all, so no fetch, ssh command, credential helper or upload-pack either: an empty
 * `GIT_ALLOW_PROTOCOL` allows none and, unlike `protocol.allow=never`, no `protocol.<name>.allow` of the
 * repository's overrides it. Replace refs are not followed (`GIT_NO_REPLACE_OBJECTS`), so the repository
 * cannot make a diff show other content than the files hold. Git gets no system or global configuration and
 * none of the person's environment (no key, no `GIT_*` variable): only a `PATH` to find it. Each call is
 * killed after a bound of time and output.
 *
 * {@linkcode openRepository} is a repository whose work tree is exactly the project (a `core.worktree` cannot
 * move it); {@linkcode gitHolding} asks the repository that holds a folder, wherever it is. Both empty every
 * filter driver the configuration names before they run anything else. `tests/architecture` fails if any
 * other module starts git.
 *
 * @module
 */
import { dirname } from "node:path";

/** How long one git command may run before it is killed. */
const GIT_TIMEOUT_MS = 60_000;

/** Most output of one git command read before it is killed: past it, the rest is not worth counting. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/** One configuration setting: its exact key and its value. */
type Setting = readonly [key: string, value: string];

/** The settings that keep a repository's configuration from running anything, or changing what git shows. */
const HARDENING: readonly Setting[] = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.pager", "cat"],
  ["core.untrackedCache", "false"],
  ["core.splitIndex", "false"],
  ["diff.external", ""],
  ["gc.auto", "0"],
  ["maintenance.auto", "false"],
  ["credential.helper", ""],
  ["color.ui", "never"],
  ["diff.noprefix", "false"],
  ["diff.mnemonicPrefix", "false"],
  ["diff.relative", "false"],
  ["log.showSignature", "false"],
];

/** A filter driver's settings that name a program, each emptied, and the one that stops git without one. */
const FILTER_EMPTIED: readonly Setting[] = [["clean", ""], ["smudge", ""], ["process", ""], [
  "required",
  "false",
]];

/** What one git command gave. */
export interface GitResult {
  ok: boolean;
  /** Its exit code (-1 when it could not start, was killed, or gave more output than weft reads). */
  code: number;
  /** Its output, or the first bytes of it that were asked to be kept. */
  stdout: Uint8Array;
  /** How many bytes of output it gave in all. */
  total: number;
  stderr: string;
}

/** How one git command runs: its environment beside the hardened one, and how much of its output to keep. */
export interface GitOptions {
  env?: Record<string, string>;
  /** Bytes of output kept (all of it by default, up to the bound); the rest is counted only. */
  keep?: number;
}

/** Runs git with `args`, hardened; never throws for git's own failure. */
export type RunGit = (args: string[], options?: GitOptions) => Promise<GitResult>;

/** Where git works: the repository folder and the project folder as its work tree. */
interface GitPlace {
  /** The project folder, free of links. */
  workTree: string;
  /** The repository's own folder (`.git`, or a worktree's folder), absolute. */
  gitDir: string;
  /** The folder of its objects (the common folder's `objects` for a worktree), absolute. */
  objects: string;
}

/** A repository whose work tree is the project, and the hardened way to run git in it. */
export interface Repository extends GitPlace {
  git: RunGit;
}

/**
 * The repository whose work tree is exactly `root`, or undefined when `root` is not the top of a work tree
 * (no repository, one above the project, one whose `core.worktree` points elsewhere, or git missing or
 * refusing it).
 */
export async function openRepository(root: string): Promise<Repository | undefined> {
  // Never above the project: a repository that holds the project is not the project's own.
  const found = await run(
    ["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-dir", "--git-common-dir"],
    root,
    { env: { GIT_CEILING_DIRECTORIES: dirname(root) } },
  );
  if (!found.ok) return undefined;
  const [top, gitDir, common] = new TextDecoder().decode(found.stdout).split("\n");
  if (top !== root || !gitDir || !common) return undefined;
  const place: GitPlace = { workTree: root, gitDir, objects: `${common}/objects` };
  const git = await hardenedIn(root, { GIT_DIR: place.gitDir, GIT_WORK_TREE: place.workTree });
  return git && { ...place, git };
}

/**
 * Git in whatever repository holds `dir` (the project's own or one above it, as git finds it), for questions
 * about a path there (is it tracked, is it ignored); undefined when git is missing or cannot read the
 * configuration. Outside any repository, git's own commands fail, as they would from a shell.
 */
export function gitHolding(dir: string): Promise<RunGit | undefined> {
  return hardenedIn(dir, {});
}

/**
 * A runner in `cwd` that also empties every filter driver the configuration there names (an attribute can
 * name any driver, but a driver runs nothing unless configuration gives it a command), or undefined when the
 * configuration cannot be listed: then it cannot be known which drivers to empty, and nothing runs.
 */
async function hardenedIn(cwd: string, env: Record<string, string>): Promise<RunGit | undefined> {
  // Every file the configuration includes is read too; exit code 1 is git's "no such key".
  const listed = await run(["config", "--null", "--name-only", "--get-regexp", "^filter\\."], cwd, { env });
  if (!listed.ok && !(listed.code === 1 && listed.total === 0)) return undefined;
  const drivers = new Set<string>();
  for (const key of new TextDecoder().decode(listed.stdout).split("\0")) {
    const match = /^filter\.(.+)\.[^.]+$/s.exec(key);
    if (match) drivers.add(match[1]);
  }
  const emptied = [...drivers].flatMap((driver) =>
    FILTER_EMPTIED.map(([name, value]): Setting => [`filter.${driver}.${name}`, value])
  );
  return (args, options = {}) => run(args, cwd, { ...options, env: { ...env, ...options.env } }, emptied);
}

/** The environment that gives git `settings` by exact key, as if from its command line. */
function configEnvironment(settings: readonly Setting[]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(settings.length) };
  settings.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/**
 * Runs git in `cwd` with only the environment given (and a PATH to find it), the hardening and `extra`
 * settings on top of any file's, bounded.
 */
async function run(
  args: string[],
  cwd: string,
  options: GitOptions,
  extra: readonly Setting[] = [],
): Promise<GitResult> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("git", {
      args: ["--no-pager", ...args],
      cwd,
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        GIT_TERMINAL_PROMPT: "0",
        // A list naming no protocol: every transport is refused, whatever the configuration allows.
        GIT_ALLOW_PROTOCOL: "",
        GIT_NO_REPLACE_OBJECTS: "1",
        GIT_OPTIONAL_LOCKS: "0",
        GIT_PAGER: "cat",
        PAGER: "cat",
        LC_ALL: "C",
        ...options.env,
        ...configEnvironment([...HARDENING, ...extra]),
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch {
    return { ok: false, code: -1, stdout: new Uint8Array(), total: 0, stderr: "git could not be started" };
  }
  let killed = false;
  const kill = () => {
    killed = true;
    try {
      child.kill("SIGKILL");
    } catch { /* it ended already */ }
  };
  const timer = setTimeout(kill, GIT_TIMEOUT_MS);
  try {
    const [stdout, stderr, status] = await Promise.all([
      collect(child.stdout, options.keep ?? MAX_OUTPUT_BYTES, kill),
      collect(child.stderr, 64 * 1024),
      child.status,
    ]);
    const whole = !killed && stdout.total < MAX_OUTPUT_BYTES;
    return {
      ok: status.success && whole,
      code: whole && status.signal === null ? status.code : -1,
      stdout: stdout.kept,
      total: stdout.total,
      stderr: new TextDecoder().decode(stderr.kept),
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads a stream whole, keeping its first `keep` bytes and counting the rest; past {@linkcode
 * MAX_OUTPUT_BYTES} it calls `over` (which kills the command) and stops counting.
 */
async function collect(
  stream: ReadableStream<Uint8Array>,
  keep: number,
  over?: () => void,
): Promise<{ kept: Uint8Array; total: number }> {
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let total = 0;
  for await (const chunk of stream) {
    if (total >= MAX_OUTPUT_BYTES) continue;
    total += chunk.length;
    if (kept < keep) {
      const part = chunk.subarray(0, keep - kept);
      chunks.push(part);
      kept += part.length;
    }
    if (total >= MAX_OUTPUT_BYTES) over?.();
  }
  const out = new Uint8Array(kept);
  let at = 0;
  for (const chunk of chunks) out.set(chunk, at), at += chunk.length;
  return { kept: out, total };
}
