/**
 * Reading files of a folder tree so that no interleaving of renames and links can lead outside it: each file
 * is opened once without following links and without blocking, what was opened is checked (a regular file
 * with one link, within the size bound, really at the path that was asked for) and read from that same
 * handle. On Linux the kernel's own name for the open descriptor (`/proc/self/fd/N`) proves where it is; on
 * other systems every component is checked with `lstat` before and the identity after opening (a narrower
 * race remains there, see docs/agent-protocol.md).
 *
 * @module
 */
import type * as fs from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { invalid, WeftError } from "../errors.ts";
import { isDeniedName } from "../engine/project_paths.ts";

const PROC_FD = Deno.build.os === "linux";

/** node:fs with the open flags this module uses. */
interface NodeFs {
  fs: typeof fs;
  open: typeof fs.promises.open;
  /** Opening never follows a last-component link and never waits on a FIFO or a device. */
  fileFlags: number;
  dirFlags: number;
}

let nodeFs: NodeFs | undefined;

/**
 * node:fs, loaded at the first read rather than with this module: importing it costs ~5–9 ms of CPU, and the
 * engine imports this module on every start of the service, which reads no project file before a request.
 */
function loadFs(): NodeFs {
  if (!nodeFs) {
    const module = process.getBuiltinModule("node:fs") as typeof fs;
    const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = module.constants;
    nodeFs = {
      fs: module,
      open: module.promises.open,
      fileFlags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK,
      dirFlags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK | (O_DIRECTORY ?? 0),
    };
  }
  return nodeFs;
}

/**
 * Reads `segments` under `root` (an absolute path without links, e.g. from `Deno.realPath`). Refusals are
 * `INVALID_REQUEST` (a link, more than one hard link, a path that is not where it claims) or `TOOL_FAILED`
 * (missing, not a regular file, larger than `maxBytes`), and name only `label`.
 */
export async function readConfined(
  root: string,
  segments: string[],
  maxBytes: number,
  label = segments.join("/"),
): Promise<Uint8Array> {
  const expected = join(root, ...segments);
  if (!PROC_FD) await requireNoLinks(root, segments, label);
  let handle: FileHandle;
  try {
    const { open, fileFlags } = loadFs();
    handle = await open(expected, fileFlags);
  } catch (error) {
    throw openFailure(error, label);
  }
  try {
    const info = await handle.stat();
    requireRegularSingle(info, label);
    await requireAt(handle.fd, info, expected, label);
    if (info.size > maxBytes) throw toolFailed(`${label} is larger than ${maxBytes} bytes`);
    return await readBounded(handle, info.size, label);
  } finally {
    await handle.close().catch(() => {});
  }
}

/** The synchronous form of {@linkcode readConfined}, for loading workflow folders. */
export function readConfinedSync(
  root: string,
  segments: string[],
  maxBytes: number,
  label = segments.join("/"),
): Uint8Array {
  const expected = join(root, ...segments);
  if (!PROC_FD) requireNoLinksSync(root, segments, label);
  const { fs, fileFlags } = loadFs();
  let fd: number;
  try {
    fd = fs.openSync(expected, fileFlags);
  } catch (error) {
    throw openFailure(error, label);
  }
  try {
    const info = fs.fstatSync(fd);
    requireRegularSingle(info, label);
    requireAtSync(fd, info, expected, label);
    if (info.size > maxBytes) throw toolFailed(`${label} is larger than ${maxBytes} bytes`);
    const buffer = new Uint8Array(info.size + 1);
    let total = 0;
    while (total < buffer.length) {
      const read = fs.readSync(fd, buffer, total, buffer.length - total, null);
      if (read === 0) break;
      total += read;
    }
    if (total > info.size) throw changed(label);
    return buffer.subarray(0, total);
  } finally {
    fs.closeSync(fd);
  }
}

/** Bounds of a walk: at most `entries` directory entries looked at, and no longer than `ms`. */
export interface WalkLimits {
  entries: number;
  ms: number;
}

/** What a walk saw: files in sorted order, and whether a bound cut it short. */
export interface WalkResult {
  files: string[];
  truncated: boolean;
}

/**
 * Lists regular files under `segments` of `root`, depth first in name order, skipping links, denied names and
 * `skip` folders. Each folder is opened without following links and read through that same descriptor, so a
 * folder swapped for a link is never walked. Stops at `maxFiles` files or at a bound of `limits`.
 */
export async function walkConfined(
  root: string,
  segments: string[],
  options: { maxFiles: number; limits: WalkLimits; skip: ReadonlySet<string> },
): Promise<WalkResult> {
  const deadline = Date.now() + options.limits.ms;
  const files: string[] = [];
  let seen = 0;
  let truncated = false;
  const walk = async (parts: string[], top: boolean): Promise<void> => {
    const entries = await readFolder(root, parts, top);
    if (entries === null) return;
    entries.sort((a, b) => a.name < b.name ? -1 : 1);
    for (const entry of entries) {
      if (truncated) return;
      if (++seen > options.limits.entries || Date.now() > deadline || files.length >= options.maxFiles) {
        truncated = true;
        return;
      }
      if (isDeniedName(entry.name) || entry.isSymlink) continue;
      if (entry.isDirectory && !options.skip.has(entry.name)) await walk([...parts, entry.name], false);
      else if (entry.isFile) files.push([...parts, entry.name].join("/"));
    }
  };
  await walk(segments, true);
  return { files, truncated };
}

/**
 * The entries of one folder, read through a descriptor opened without following links. The first folder of
 * a walk must be one (`TOOL_FAILED` otherwise); a folder below it that changed meanwhile is skipped.
 */
async function readFolder(root: string, parts: string[], top: boolean): Promise<Deno.DirEntry[] | null> {
  const label = parts.join("/") || ".";
  const expected = join(root, ...parts);
  let handle: FileHandle;
  try {
    if (!PROC_FD) await requireNoLinks(root, parts, label);
    const { open, dirFlags } = loadFs();
    handle = await open(expected, dirFlags);
  } catch (error) {
    if (!top) return null;
    if (error instanceof WeftError) throw error;
    const code = (error as { code?: string }).code;
    if (code === "ENOTDIR" || code === "ELOOP") {
      const named = await Deno.lstat(expected).catch(() => null);
      if (named?.isSymlink) throw openFailure({ code: "ELOOP" }, label);
      throw toolFailed(`not a folder: ${label}`);
    }
    throw openFailure(error, label);
  }
  try {
    const info = await handle.stat();
    if (!info.isDirectory()) {
      if (top) throw toolFailed(`not a folder: ${label}`);
      return null;
    }
    try {
      await requireAt(handle.fd, info, expected, label);
    } catch (error) {
      if (top) throw error;
      return null;
    }
    const entries: Deno.DirEntry[] = [];
    // On Linux the descriptor's /proc entry is the folder that was opened, whatever its name means now.
    for await (const entry of Deno.readDir(PROC_FD ? `/proc/self/fd/${handle.fd}` : expected)) {
      entries.push(entry);
    }
    return entries;
  } finally {
    await handle.close().catch(() => {});
  }
}

function requireRegularSingle(info: fs.Stats, label: string): void {
  if (!info.isFile()) throw toolFailed(`not a regular file: ${label}`);
  if (info.nlink > 1) {
    throw invalid(`${label} has more than one hard link; weft reads only files with a single link`);
  }
}

/** Proves that the open descriptor `fd` is the file at `expected`, reached through no link. */
async function requireAt(fd: number, info: fs.Stats, expected: string, label: string): Promise<void> {
  if (PROC_FD) {
    const actual = await Deno.readLink(`/proc/self/fd/${fd}`).catch(() => "");
    if (actual !== expected) throw movedOrLinked(label);
    return;
  }
  const named = await Deno.lstat(expected).catch(() => null);
  if (!named || named.ino !== info.ino || named.dev !== info.dev) throw movedOrLinked(label);
}

function requireAtSync(fd: number, info: fs.Stats, expected: string, label: string): void {
  if (PROC_FD) {
    let actual = "";
    try {
      actual = Deno.readLinkSync(`/proc/self/fd/${fd}`);
    } catch { /* an unreadable descriptor proves nothing */ }
    if (actual !== expected) throw movedOrLinked(label);
    return;
  }
  let named: Deno.FileInfo | null = null;
  try {
    named = Deno.lstatSync(expected);
  } catch { /* gone: refused below */ }
  if (!named || named.ino !== info.ino || named.dev !== info.dev) throw movedOrLinked(label);
}

/** Where no descriptor names its file, every folder on the way must not be a link. */
async function requireNoLinks(root: string, segments: string[], label: string): Promise<void> {
  for (let i = 1; i < segments.length; i++) {
    const info = await Deno.lstat(join(root, ...segments.slice(0, i))).catch(() => null);
    if (info && !info.isDirectory) throw movedOrLinked(label);
  }
}

function requireNoLinksSync(root: string, segments: string[], label: string): void {
  for (let i = 1; i < segments.length; i++) {
    let info: Deno.FileInfo | null = null;
    try {
      info = Deno.lstatSync(join(root, ...segments.slice(0, i)));
    } catch { /* missing: the open reports it */ }
    if (info && !info.isDirectory) throw movedOrLinked(label);
  }
}

/** Reads at most one byte more than the size checked, so a file that grows meanwhile is refused, not read. */
async function readBounded(handle: FileHandle, size: number, label: string): Promise<Uint8Array> {
  const buffer = new Uint8Array(size + 1);
  let total = 0;
  while (total < buffer.length) {
    const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
    if (bytesRead === 0) break;
    total += bytesRead;
  }
  if (total > size) throw changed(label);
  return buffer.subarray(0, total);
}

function openFailure(error: unknown, label: string): WeftError {
  if (error instanceof WeftError) return error;
  const code = (error as { code?: string }).code;
  if (code === "ENOENT" || code === "ENOTDIR") return toolFailed(`no such file or folder: ${label}`);
  if (code === "ELOOP" || code === "EMLINK") {
    return invalid(`${label} is a symbolic link; weft does not follow links`);
  }
  if (code === "EACCES" || code === "EPERM") {
    return toolFailed(`${label} is not readable (permission denied)`);
  }
  if (code === "EISDIR") return toolFailed(`not a regular file: ${label}`);
  return toolFailed(`${label} could not be opened`);
}

function movedOrLinked(label: string): WeftError {
  return invalid(`${label} leads through a symbolic link or changed while being opened; it is not read`);
}

function changed(label: string): WeftError {
  return toolFailed(`${label} changed while being read; try again`);
}

function toolFailed(message: string): WeftError {
  return new WeftError("TOOL_FAILED", message);
}
