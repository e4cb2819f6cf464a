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
  /** Keeps the whole folder out of git: it holds tokens and answers. */
  gitignore: string;
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
    gitignore: join(weftDir, ".gitignore"),
  };
}

/**
 * Creates `.weft/` and its log folder with owner-only modes, tightening modes that were left too open, and
 * a `.gitignore` of `*` in it (as Python's venv and pytest's cache do) so `git add .` never takes tokens.
 */
export async function ensureWeftDir(paths: WeftPaths): Promise<void> {
  await Deno.mkdir(paths.logs, { recursive: true, mode: 0o700 });
  await writeGitignore(paths);
  if (Deno.build.os !== "windows") {
    await Deno.chmod(paths.weftDir, 0o700);
    await Deno.chmod(paths.logs, 0o700);
  }
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
