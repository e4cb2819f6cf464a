/**
 * What the agent tools that read the project do, over the {@linkcode ProjectFiles} port: list files and read
 * one UTF-8 text file, bounded. Confinement (no `..`, no links, never `.git`, `.weft` or `.env*`) is the
 * port's rule, applied by every implementation.
 *
 * @module
 */
import { WeftError } from "../errors.ts";
import { confinedSegments } from "./project_paths.ts";
import type { FileListing, ProjectFiles } from "./project_files.ts";

/** Largest file `read_project_file` returns, in bytes. */
export const MAX_READ_BYTES = 256 * 1024;
/** Most paths one `list_project_files` call returns. */
export const MAX_LISTED_FILES = 2000;

/** Folders a listing skips because they are noise to an agent, though they may be read explicitly. */
const SKIPPED_IN_LISTINGS: ReadonlySet<string> = new Set(["node_modules"]);

/** Lists files under `dir` (default: the project root), recursively, sorted, capped. */
export async function listProjectFiles(files: ProjectFiles, dir = ""): Promise<FileListing> {
  return await files.list(confinedSegments(dir).join("/"), {
    maxFiles: MAX_LISTED_FILES,
    skip: SKIPPED_IN_LISTINGS,
  });
}

/** Reads one UTF-8 text file of the project. */
export async function readProjectFile(
  files: ProjectFiles,
  path: string,
): Promise<{ path: string; size: number; content: string }> {
  const relative = filePath(path);
  const bytes = await files.read(relative, MAX_READ_BYTES);
  if (bytes === null) throw new WeftError("TOOL_FAILED", `no such file or folder: ${relative}`);
  return { path: relative, size: bytes.length, content: utf8(bytes, relative) };
}

/** The normalized project-relative path of a file (`./a//b` is `a/b`); refuses a blank one or the root. */
export function filePath(path: string): string {
  if (!path.trim()) throw new WeftError("INVALID_REQUEST", "path must not be blank");
  const segments = confinedSegments(path);
  if (segments.length === 0) throw new WeftError("TOOL_FAILED", "not a regular file: .");
  return segments.join("/");
}

/** `bytes` as UTF-8 text; `TOOL_FAILED` naming `path` when they are not. */
export function utf8(bytes: Uint8Array, path: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new WeftError("TOOL_FAILED", `${path} is not UTF-8 text`);
  }
}
