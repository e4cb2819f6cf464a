/**
 * Where a project's service keeps its state: everything lives in `<project>/.weft/`.
 *
 * @module
 */

import { join, resolve } from "node:path";

/** The files and folders of one project's `.weft/` directory. */
export interface WeftPaths {
  projectDir: string;
  weftDir: string;
  connection: string;
  lock: string;
  database: string;
  logs: string;
  /** Studio's session generation (`studio_sessions.ts`). */
  studioSessions: string;
  /** The service's last answers to an IDE's opening requests, which `weft mcp` gives while the service starts. */
  ideAnswers: string;
  /** Keeps the whole folder out of git: it holds tokens and answers. */
  gitignore: string;
  /** The process groups of the commands running now, so a start after a crash can end them. */
  commandGroups: string;
  /** What `changes` steps compare with: snapshots of the project's files (git objects or file digests). */
  changes: string;
  /** The temporary files of writes to the project's files, emptied at each start (`project_folder.ts`). */
  temporary: string;
}

/** Resolves the state layout for a project directory (which need not exist yet). */
export function weftPaths(projectDir: string): WeftPaths {
  const root = resolve(projectDir);
  const weftDir = join(root, ".weft");
  return {
    projectDir: root,
    weftDir,
    connection: join(weftDir, "connection.json"),
    lock: join(weftDir, "service.lock"),
    database: join(weftDir, "weft.db"),
    logs: join(weftDir, "logs"),
    studioSessions: join(weftDir, "studio.json"),
    ideAnswers: join(weftDir, "ide_answers.json"),
    gitignore: join(weftDir, ".gitignore"),
    commandGroups: join(weftDir, "commands"),
    changes: join(weftDir, "changes"),
    temporary: join(weftDir, "tmp"),
  };
}

/**
 * Creates what is missing of `.weft/`, its log folder and the database file, each with the owner-only mode
 * by which weft recognises its own state (`trust.ts`); what exists is left alone, since it was verified.
 * The database is created empty at 0600 before SQLite opens it, and SQLite gives its -wal and -shm the same.
 * A `.gitignore` of `*` goes in too (as Python's venv and pytest's cache do) so `git add .` never takes tokens.
 */
export async function ensureWeftDir(paths: WeftPaths): Promise<void> {
  for (const dir of [paths.weftDir, paths.logs]) {
    try {
      await Deno.mkdir(dir, { mode: 0o700 });
      if (Deno.build.os !== "windows") await Deno.chmod(dir, 0o700);
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
  await writeGitignore(paths);
  try {
    (await Deno.open(paths.database, { write: true, createNew: true, mode: 0o600 })).close();
    if (Deno.build.os !== "windows") await Deno.chmod(paths.database, 0o600);
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
}

/**
 * Empties `.weft/tmp` and makes it again, owner-only: what it holds are the temporary files of writes a
 * killed instance cut short, of no use to anyone. Called while the lock is held, before anything writes.
 */
export async function resetTemporary(paths: WeftPaths): Promise<void> {
  await Deno.remove(paths.temporary, { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  await Deno.mkdir(paths.temporary, { mode: 0o700 });
  if (Deno.build.os !== "windows") await Deno.chmod(paths.temporary, 0o700);
}

/** The `.gitignore` weft keeps in `.weft/`. */
export const WEFT_GITIGNORE = "# weft's private state (tokens, answers, logs): never commit it\n*\n";

/** Writes `.weft/.gitignore` when it is missing; one a person edited is left as it is. */
async function writeGitignore(paths: WeftPaths): Promise<void> {
  try {
    await Deno.writeTextFile(paths.gitignore, WEFT_GITIGNORE, { createNew: true, mode: 0o600 });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
}
