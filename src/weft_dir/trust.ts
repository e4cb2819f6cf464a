/**
 * How weft recognises the `.weft/` it made: a real folder (no symbolic link) owned by the current user with
 * mode exactly 0700, whose entries weft manages are real files (or the `logs` folder) owned by that user,
 * with one link and mode exactly 0600 (0700 for `logs`), none of them tracked by git. A checkout writes
 * 0755/0644 under the usual umask, so a `.weft/` that came with a repository fails the mode check, and the
 * git check catches the rest; state another user made fails the owner check. Anything else is untrusted:
 * never used, never deleted, and reported with how to recover.
 *
 * @module
 */

import { WeftError } from "../errors.ts";
import { gitHolding } from "../lib/hardened_git.ts";
import type { WeftPaths } from "./paths.ts";

/** How to recover from untrusted state: it is moved aside, never deleted, and weft makes a new one. */
export const UNTRUSTED_FIX =
  "mv .weft .weft.untrusted  (in the project folder; the next start makes a new .weft/; inspect or delete the old one)";

/** What weft found in `.weft/` that it did not make, with what to do about it. */
export class UntrustedStateError extends WeftError {
  constructor(readonly finding: string) {
    super(
      "NEEDS_RECOVERY",
      `${finding}. weft uses only a .weft/ it created for you on this machine, so it will not read, ` +
        "change or delete this one",
    );
    this.name = "UntrustedStateError";
  }

  /** The command that recovers. */
  get fix(): string {
    return UNTRUSTED_FIX;
  }
}

/** The database files whose modes older versions of weft left at 0644; they are tightened, not refused. */
const DATABASE_FILES = new Set(["weft.db", "weft.db-wal", "weft.db-shm"]);

/**
 * Checks `.weft/` and every entry weft manages. Resolves when there is no `.weft/` yet or it is weft's own;
 * throws {@linkcode UntrustedStateError} naming the first problem otherwise. Only database files left 0644
 * by an older weft inside an otherwise trusted folder are tightened to 0600.
 */
export async function verifyWeftDir(paths: WeftPaths, options: { readOnly?: boolean } = {}): Promise<void> {
  if (Deno.build.os === "windows") return;
  const dir = lstatOrNull(paths.weftDir);
  if (!dir) return;
  requireOwn(dir, ".weft", "folder", 0o700);
  await requireUntracked(paths);
  const logs = lstatOrNull(paths.logs);
  if (logs) requireOwn(logs, ".weft/logs", "folder", 0o700);
  const files = [
    paths.connection,
    paths.lock,
    paths.studioSessions,
    paths.ideAnswers,
    paths.database,
    `${paths.database}-wal`,
    `${paths.database}-shm`,
  ];
  for (const path of files) {
    const info = lstatOrNull(path);
    if (!info) continue;
    const name = path.slice(paths.weftDir.length + 1);
    if (DATABASE_FILES.has(name) && info.isFile && ((info.mode ?? 0) & 0o777) === 0o644) {
      requireOwn({ ...info, mode: 0o600 }, `.weft/${name}`, "file", 0o600);
      if (!options.readOnly) await Deno.chmod(path, 0o600);
      continue;
    }
    requireOwn(info, `.weft/${name}`, "file", 0o600);
  }
  if (logs) {
    // One log file per service start accumulates; synchronous checks keep a thousand of them at a few ms
    // (awaited one by one, they took ~30 ms of CPU and far more wall time on a busy machine).
    for (const entry of Deno.readDirSync(paths.logs)) {
      const info = lstatOrNull(`${paths.logs}/${entry.name}`);
      if (info) requireOwn(info, `.weft/logs/${entry.name}`, "file", 0o600);
    }
  }
}

function requireOwn(info: Deno.FileInfo, name: string, kind: "file" | "folder", mode: number): void {
  if (info.isSymlink) throw new UntrustedStateError(`${name} is a symbolic link`);
  if (kind === "folder" ? !info.isDirectory : !info.isFile) {
    throw new UntrustedStateError(`${name} is not a ${kind === "folder" ? "folder" : "regular file"}`);
  }
  if (info.uid !== null && info.uid !== Deno.uid()) {
    throw new UntrustedStateError(`${name} belongs to another user (uid ${info.uid})`);
  }
  if (kind === "file" && info.nlink !== null && info.nlink > 1) {
    throw new UntrustedStateError(`${name} has more than one hard link`);
  }
  const actual = (info.mode ?? 0) & 0o777;
  if (actual !== mode) {
    throw new UntrustedStateError(
      `${name} has mode ${actual.toString(8).padStart(4, "0")}, not the ${
        mode.toString(8).padStart(4, "0")
      } ` +
        "weft gives it (a checkout or another program made it)",
    );
  }
}

/**
 * Refuses a `.weft/` that git tracks: it came with the repository. Skipped where git is not installed or the
 * project is in no repository. Git runs hardened: the repository came with the project, as `.weft/` may have.
 */
async function requireUntracked(paths: WeftPaths): Promise<void> {
  const git = await gitHolding(paths.projectDir);
  const tracked = await git?.(["ls-files", "-z", "--", ".weft"]);
  if (tracked?.ok && tracked.stdout.length > 0) {
    throw new UntrustedStateError(
      ".weft is tracked by git, so it may have come with the repository (if it is your own, committed by " +
        "mistake: git rm -r --cached .weft, commit, and treat its tokens as leaked)",
    );
  }
}

function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}
