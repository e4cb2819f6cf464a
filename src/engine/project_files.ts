/**
 * Read-only access to the project for agent tools: never outside the project (no `..`, no absolute paths, no
 * symbolic link leading out), never `.git`, `.weft` or `.env*`, and size-capped.
 *
 * @module
 */
import { isAbsolute, join, relative, sep } from "node:path";
import { invalid, WeftError } from "../errors.ts";

/** Largest file `read_project_file` returns, in bytes. */
export const MAX_READ_BYTES = 256 * 1024;
/** Most paths one `list_project_files` call returns. */
export const MAX_LISTED_FILES = 2000;

/** Folders a listing skips because they are noise to an agent, though they may be read explicitly. */
const SKIPPED_IN_LISTINGS = new Set(["node_modules"]);

/** Whether a path segment is never shown to an agent. */
function isForbidden(segment: string): boolean {
  return segment === ".git" || segment === ".weft" || segment.startsWith(".env");
}

/** Resolves a project-relative path to an absolute one inside the project, refusing what policy forbids. */
function resolveInside(projectDir: string, path: string): { absolute: string; relative: string } {
  if (path.includes("\0")) throw invalid("path must not contain NUL");
  if (isAbsolute(path) || /^[A-Za-z]:/.test(path) || path.startsWith("\\")) {
    throw invalid("path must be relative to the project, not absolute");
  }
  const segments = path.split(/[\\/]+/).filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) throw invalid("path must not contain `..`");
  if (segments.some(isForbidden)) throw invalid("path is not readable: .git, .weft and .env* are off limits");
  const root = Deno.realPathSync(projectDir);
  const absolute = join(root, ...segments);
  let real: string;
  try {
    real = Deno.realPathSync(absolute);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw toolFailed(`no such file or folder: ${segments.join("/")}`);
    }
    throw error;
  }
  const inside = relative(root, real);
  if (inside.startsWith("..") || isAbsolute(inside)) throw invalid("path leads outside the project");
  if (inside.split(sep).some(isForbidden)) throw invalid("path leads into .git, .weft or .env*");
  return { absolute: real, relative: segments.join("/") };
}

/** Lists files under `dir` (default: the project root), recursively, sorted, capped. */
export function listProjectFiles(projectDir: string, dir = ""): { files: string[]; truncated: boolean } {
  const start = resolveInside(projectDir, dir);
  if (!Deno.statSync(start.absolute).isDirectory) throw toolFailed(`not a folder: ${start.relative}`);
  const files: string[] = [];
  let truncated = false;
  const walk = (absolute: string, prefix: string) => {
    const entries = [...Deno.readDirSync(absolute)].sort((a, b) => a.name < b.name ? -1 : 1);
    for (const entry of entries) {
      if (isForbidden(entry.name) || entry.isSymlink) continue;
      if (files.length >= MAX_LISTED_FILES) return void (truncated = true);
      if (entry.isDirectory && !SKIPPED_IN_LISTINGS.has(entry.name)) {
        walk(join(absolute, entry.name), `${prefix}${entry.name}/`);
      } else if (entry.isFile) files.push(prefix + entry.name);
    }
  };
  walk(start.absolute, start.relative ? `${start.relative}/` : "");
  return { files, truncated };
}

/** Reads one UTF-8 text file of the project. */
export function readProjectFile(
  projectDir: string,
  path: string,
): { path: string; size: number; content: string } {
  if (!path.trim()) throw invalid("path must not be blank");
  const target = resolveInside(projectDir, path);
  const info = Deno.statSync(target.absolute);
  if (!info.isFile) throw toolFailed(`not a file: ${target.relative}`);
  if (info.size > MAX_READ_BYTES) {
    throw toolFailed(`${target.relative} is larger than ${MAX_READ_BYTES} bytes`);
  }
  const bytes = Deno.readFileSync(target.absolute);
  try {
    return {
      path: target.relative,
      size: bytes.length,
      content: new TextDecoder("utf-8", { fatal: true }).decode(bytes),
    };
  } catch {
    throw toolFailed(`${target.relative} is not UTF-8 text`);
  }
}

function toolFailed(message: string): WeftError {
  return new WeftError("TOOL_FAILED", message);
}
