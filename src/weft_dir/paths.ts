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
  };
}

/** Creates `.weft/` and its log folder with owner-only modes, tightening modes that were left too open. */
export async function ensureWeftDir(paths: WeftPaths): Promise<void> {
  await Deno.mkdir(paths.logs, { recursive: true, mode: 0o700 });
  if (Deno.build.os !== "windows") {
    await Deno.chmod(paths.weftDir, 0o700);
    await Deno.chmod(paths.logs, 0o700);
  }
}
