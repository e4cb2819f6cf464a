/**
 * Running git inside a project whose `.git/` came with the project, and so is as untrusted as its files: a
 * repository's own configuration can name programs git would run (`core.fsmonitor`, hooks such as
 * `post-index-change` under `core.hooksPath` or `.git/hooks/`, `filter.<driver>.clean`/`process` for the
 * files `.gitattributes` names, `diff.external` and `diff.<driver>.textconv`/`command`, `core.pager`,
 * `core.sshCommand`, credential helpers and a promisor remote's lazy fetch, `gc.auto`'s hooks). Every call
 * here turns each of them off with `-c` (which wins over any file; no transport may run at all, so no ssh
 * command or credential helper either), passes no system or global configuration and no environment of the
 * service's, pins the repository and its work tree to the project (a `core.worktree` of
 * the repository cannot move it), asks for no pager, no colour, no external diff and no textconv, and is
 * killed after a bound of time. Git only reads the person's index, HEAD and branches: what weft writes goes
 * to an index file and an object folder of its own under `.weft/`.
 *
 * @module
 */
import { dirname } from "node:path";

/** How long one git command may run before it is killed. */
const GIT_TIMEOUT_MS = 60_000;

/** Most output of one git command read before it is killed: past it, the rest is not worth counting. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

/** The switches that keep a repository's configuration from running anything. */
const HARDENING = [
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  "core.pager=cat",
  "core.untrackedCache=false",
  "core.splitIndex=false",
  "protocol.allow=never",
  "diff.external=",
  "gc.auto=0",
  "maintenance.auto=false",
  "credential.helper=",
  "color.ui=never",
  "diff.noprefix=false",
  "diff.mnemonicPrefix=false",
  "diff.relative=false",
  "log.showSignature=false",
].flatMap((setting) => ["-c", setting]);

/** Where git works: the repository folder and the project folder as its work tree. */
interface GitPlace {
  /** The project folder, free of links. */
  workTree: string;
  /** The repository's own folder (`.git`, or a worktree's folder), absolute. */
  gitDir: string;
  /** The folder of its objects (the common folder's `objects` for a worktree), absolute. */
  objects: string;
}

/** What one git command gave. */
export interface GitResult {
  ok: boolean;
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

/** A repository whose work tree is the project, and the hardened way to run git in it. */
export interface Repository extends GitPlace {
  /** Runs git with `args`, hardened; never throws for git's own failure. */
  git(args: string[], options?: GitOptions): Promise<GitResult>;
}

/**
 * The repository whose work tree is exactly `root`, or undefined when `root` is not the top of a work tree
 * (no repository, one above the project, one whose `core.worktree` points elsewhere, or git missing or
 * refusing it).
 */
export async function openRepository(root: string): Promise<Repository | undefined> {
  // Never above the project: a repository that holds the project is not the project's own.
  const found = await git(
    ["rev-parse", "--path-format=absolute", "--show-toplevel", "--git-dir", "--git-common-dir"],
    root,
    { env: { GIT_CEILING_DIRECTORIES: dirname(root) } },
  );
  if (!found.ok) return undefined;
  const [top, gitDir, common] = new TextDecoder().decode(found.stdout).split("\n");
  if (top !== root || !gitDir || !common) return undefined;
  const place: GitPlace = { workTree: root, gitDir, objects: `${common}/objects` };
  const pinned = { GIT_DIR: place.gitDir, GIT_WORK_TREE: place.workTree };
  const filters = await filterDrivers(root, pinned);
  return {
    ...place,
    git: (args, options = {}) =>
      git([...filters, ...args], root, { ...options, env: { ...pinned, ...options.env } }),
  };
}

/**
 * `-c` switches emptying every filter driver the repository's configuration names: an attribute can name
 * any driver, but a driver runs nothing unless configuration gives it a command, so each configured one is
 * given none (and is not `required`, so git does not stop for the lack of it).
 */
async function filterDrivers(cwd: string, env: Record<string, string>): Promise<string[]> {
  const listed = await git(["config", "--null", "--name-only", "--get-regexp", "^filter\\."], cwd, { env });
  const names = new Set<string>();
  for (const key of new TextDecoder().decode(listed.stdout).split("\0")) {
    const match = /^filter\.(.+)\.[^.]+$/s.exec(key);
    if (match) names.add(match[1]);
  }
  return [...names].flatMap((name) =>
    ["clean=", "smudge=", "process=", "required=false"].flatMap((
      setting,
    ) => ["-c", `filter.${name}.${setting}`])
  );
}

/** Runs git in `cwd` with only the environment given (and a PATH to find it), hardened, bounded. */
async function git(args: string[], cwd: string, options: GitOptions): Promise<GitResult> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("git", {
      args: ["--no-pager", ...HARDENING, ...args],
      cwd,
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        GIT_TERMINAL_PROMPT: "0",
        GIT_OPTIONAL_LOCKS: "0",
        GIT_PAGER: "cat",
        PAGER: "cat",
        LC_ALL: "C",
        ...options.env,
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch {
    return { ok: false, stdout: new Uint8Array(), total: 0, stderr: "git could not be started" };
  }
  const kill = () => {
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
    const whole = stdout.total < MAX_OUTPUT_BYTES;
    return {
      ok: status.success && whole,
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
