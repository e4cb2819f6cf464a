/**
 * Read-only access to the project for agent tools: never outside the project (no `..`, no absolute paths, no
 * symbolic link anywhere on the way, no file with a second hard link), never `.git`, `.weft` or `.env*` in
 * any letter case, size-capped, and bounded walks. The file checks live in `confined_files.ts`.
 *
 * @module
 */
import { WeftError } from "../errors.ts";
import { confinedSegments, readConfined, walkConfined, type WalkLimits } from "./confined_files.ts";

/** Largest file `read_project_file` returns, in bytes. */
export const MAX_READ_BYTES = 256 * 1024;
/** Most paths one `list_project_files` call returns. */
export const MAX_LISTED_FILES = 2000;
/** How much one listing may look at before it stops and says `truncated`: folders and files, and time. */
export const LISTING_LIMITS: WalkLimits = { entries: 20_000, ms: 2_000 };

/** Folders a listing skips because they are noise to an agent, though they may be read explicitly. */
const SKIPPED_IN_LISTINGS = new Set(["node_modules"]);

/**
 * Lists files under `dir` (default: the project root), recursively, sorted, capped. `root` is the project
 * folder with links resolved (`Deno.realPath`).
 */
export async function listProjectFiles(
  root: string,
  dir = "",
  limits: WalkLimits = LISTING_LIMITS,
): Promise<{ files: string[]; truncated: boolean }> {
  return await walkConfined(root, confinedSegments(dir), {
    maxFiles: MAX_LISTED_FILES,
    limits,
    skip: SKIPPED_IN_LISTINGS,
  });
}

/** Reads one UTF-8 text file of the project; `root` as for {@linkcode listProjectFiles}. */
export async function readProjectFile(
  root: string,
  path: string,
): Promise<{ path: string; size: number; content: string }> {
  if (!path.trim()) throw new WeftError("INVALID_REQUEST", "path must not be blank");
  const segments = confinedSegments(path);
  if (segments.length === 0) throw new WeftError("TOOL_FAILED", "not a regular file: .");
  const relative = segments.join("/");
  const bytes = await readConfined(root, segments, MAX_READ_BYTES);
  try {
    return {
      path: relative,
      size: bytes.length,
      content: new TextDecoder("utf-8", { fatal: true }).decode(bytes),
    };
  } catch {
    throw new WeftError("TOOL_FAILED", `${relative} is not UTF-8 text`);
  }
}
