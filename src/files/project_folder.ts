/**
 * The project's files as the engine's {@linkcode ProjectFiles} port: what agent tools list, read and edit,
 * and what publishing reads and writes. Paths meet the rules of `project_paths.ts`: never absolute, no `..`,
 * never `.git`, `.weft` or `.env*` in any letter case, no symbolic link anywhere on the way. Each folder is
 * opened without following links, one below the other; on Linux the write then goes through the kernel's
 * name for the last folder's descriptor (`/proc/self/fd/N`), so a folder swapped for a link meanwhile is
 * never written through. Elsewhere each folder is checked with `lstat` first (a narrower race remains).
 * Writes replace the file atomically (`replace_file.ts`): a reader sees the old file or the new one, and the
 * temporary file of a write is kept in a folder of weft's own, so one a kill cut short is not left among the
 * person's files. Reads
 * and listings open each file and folder once, without following links (`confined_reads.ts`).
 *
 * @module
 */
import type * as fs from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { conflict, invalid, WeftError } from "../errors.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { confinedSegments } from "../engine/project_paths.ts";
import { DEFAULT_READ_BYTES, type ProjectFiles } from "../engine/project_files.ts";
import { readConfined, walkConfined, type WalkLimits } from "./confined_reads.ts";
import { replaceFile } from "../lib/replace_file.ts";

const PROC_FD = Deno.build.os === "linux";

/** How much one listing may look at before it stops and says `truncated`: folders and files, and time. */
export const LISTING_LIMITS: WalkLimits = { entries: 20_000, ms: 2_000 };

/**
 * The project folder `root` (an absolute path without links, e.g. from `Deno.realPath`) as project files;
 * `listing` bounds each walk, and writes keep their temporary files in `temporary` (weft's own folder in the
 * project, `.weft/tmp`), or beside the file they replace without it.
 */
export function projectFolder(
  root: string,
  listing: WalkLimits = LISTING_LIMITS,
  temporary?: string,
): ProjectFiles {
  return {
    async read(path, maxBytes = DEFAULT_READ_BYTES) {
      const segments = segmentsOf(path);
      const folder = await openFolders(root, segments, false);
      if (!folder) return null;
      try {
        if (!await entryOf(folder.at, segments.at(-1)!, path)) return null;
        return await readConfined(root, segments, maxBytes, path);
      } finally {
        await folder.handle.close().catch(() => {});
      }
    },
    async write(path, text, { unchangedFrom } = {}) {
      const segments = segmentsOf(path);
      const folder = (await openFolders(root, segments, true))!;
      try {
        const target = join(folder.at, segments.at(-1)!);
        await entryOf(folder.at, segments.at(-1)!, path);
        const beforeRename = unchangedFrom === undefined
          ? undefined
          : () => requireUnchanged(target, unchangedFrom, path);
        await replaceFile(target, text, { beforeRename, folder: temporary });
      } finally {
        await folder.handle.close().catch(() => {});
      }
    },
    async list(dir, { maxFiles, skip }) {
      return await walkConfined(root, confinedSegments(dir), { maxFiles, limits: listing, skip });
    },
  };
}

/** `CONFLICT` unless the file at `target` has the digest `expected` (null: there is no file). */
async function requireUnchanged(target: string, expected: string | null, path: string): Promise<void> {
  const info = await Deno.lstat(target).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  });
  const digest = info === null ? null : info.isFile ? sha256Hex(await Deno.readFile(target)) : "";
  if (digest !== expected) {
    throw conflict(`${path} changed while it was being replaced; it was left as it is`);
  }
}

function segmentsOf(path: string): string[] {
  const segments = confinedSegments(path);
  if (segments.length === 0) throw invalid("a path must name a file");
  return segments;
}

/**
 * What is at `name` in the folder `at`: false when nothing, true for a regular file; a link or a folder is
 * refused.
 */
async function entryOf(at: string, name: string, path: string): Promise<boolean> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(join(at, name));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
  if (info.isSymlink) throw invalid(`${path} is a symbolic link; weft does not follow links`);
  if (!info.isFile) throw new WeftError("TOOL_FAILED", `not a regular file: ${path}`);
  return true;
}

/**
 * Opens the folders of `segments` (all but the last) one below the other without following links, creating
 * missing ones when `create`; null when one is missing and `create` is false. `at` is the path that names
 * the last folder opened: its descriptor's on Linux.
 */
async function openFolders(
  root: string,
  segments: string[],
  create: boolean,
): Promise<{ handle: FileHandle; at: string } | null> {
  const { open, dirFlags, mkdir } = nodeFs();
  let handle = await open(root, dirFlags);
  let at = PROC_FD ? `/proc/self/fd/${handle.fd}` : root;
  const label = (i: number) => segments.slice(0, i + 1).join("/");
  try {
    for (const [i, segment] of segments.slice(0, -1).entries()) {
      const next = join(at, segment);
      if (!PROC_FD) await requireFolderOrNothing(next, label(i));
      let opened: FileHandle;
      try {
        opened = await open(next, dirFlags);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === "ELOOP" || code === "ENOTDIR") {
          throw invalid(`${label(i)} is a symbolic link or not a folder; weft does not follow links`);
        }
        if (code !== "ENOENT") throw error;
        if (!create) return null;
        await mkdir(next).catch((made) => {
          if ((made as { code?: string }).code !== "EEXIST") throw made;
        });
        opened = await open(next, dirFlags);
      }
      await handle.close().catch(() => {});
      handle = opened;
      at = PROC_FD ? `/proc/self/fd/${handle.fd}` : next;
    }
    return { handle, at };
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}

async function requireFolderOrNothing(path: string, label: string): Promise<void> {
  const info = await Deno.lstat(path).catch(() => null);
  if (info && !info.isDirectory) {
    throw invalid(`${label} is a symbolic link or not a folder; weft does not follow links`);
  }
}

let loaded: { open: typeof fs.promises.open; mkdir: typeof fs.promises.mkdir; dirFlags: number } | undefined;

/** node:fs, loaded at the first write rather than at every start of the service. */
function nodeFs(): NonNullable<typeof loaded> {
  if (!loaded) {
    const module = process.getBuiltinModule("node:fs") as typeof fs;
    const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = module.constants;
    loaded = {
      open: module.promises.open,
      mkdir: module.promises.mkdir,
      dirFlags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK | (O_DIRECTORY ?? 0),
    };
  }
  return loaded;
}
