/**
 * Files parsed once and kept while they stay the same file with the same content, so that a file asked about
 * on every call (the model configuration, at each `status`) costs one `stat`, not a read and a parse, yet an
 * edit shows at the next question.
 *
 * "The same" is the file's stat identity: device, inode, size, modification and change time. That alone would
 * miss an edit of the same size made within one tick of the filesystem's clock (timestamps are coarse, and
 * Deno gives the change time in whole seconds). So, as git does with its index, a file is kept only once its
 * times are older than {@linkcode RACY_MS} at the moment it was read: any later edit then gives it a newer
 * time. A file changed more recently than that is read again at every question until it settles.
 *
 * @module
 */

import type * as fs from "node:fs";
import process from "node:process";
import { deepFreeze } from "./deep_freeze.ts";

/**
 * How old a file's times must be, when it is read, for its parse to be kept: more than the coarsest clocks a
 * file's times are taken from (FAT's 2 s, Deno's whole-second change time) together.
 */
export const RACY_MS = 3_000;

/** How many files a cache keeps; the oldest kept is dropped first. */
const DEFAULT_LIMIT = 16;

/** What the cache asks of the filesystem and the clock (a test passes its own). */
export interface FileAccess {
  /** Whether something is at `path`: cheaper than a `stat` that fails, which builds an error with its stack. */
  exists(path: string): boolean;
  stat(path: string): Deno.FileInfo;
  readText(path: string): string;
  now(): number;
}

const REAL_FILES: FileAccess = {
  exists: (path) => existsSync(path),
  stat: (path) => Deno.statSync(path),
  readText: (path) => Deno.readTextFileSync(path),
  now: () => Date.now(),
};

interface Kept<T> {
  identity: string;
  value: T;
}

/** Parses of files, each kept while its file keeps its identity (see the module's text). */
export class ParsedFileCache<T> {
  readonly #kept = new Map<string, Kept<T>>();

  /**
   * `parse` turns a file's text (and its path) into the value given out; the value is frozen, since every
   * later reader of the unchanged file shares it.
   */
  constructor(
    private readonly parse: (text: string, path: string) => T,
    private readonly files: FileAccess = REAL_FILES,
    private readonly limit = DEFAULT_LIMIT,
  ) {}

  /**
   * The parse of the file at `path` as it is now, or undefined when there is none (most projects and users
   * have no such file); throws what its `stat` or read throws otherwise (a folder, no permission…).
   */
  read(path: string): T | undefined {
    // A file kept from the last read is most likely still there: its stat alone says so.
    if (!this.#kept.has(path) && !this.files.exists(path)) return undefined;
    try {
      return this.#read(path);
    } catch (error) {
      // Removed between the probe and the stat, or since it was kept.
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
  }

  #read(path: string): T {
    const readAt = this.files.now();
    const kept = this.#kept.get(path);
    // Dropped until the stat finds the file unchanged: a file removed since is then no longer held.
    this.#kept.delete(path);
    const info = this.files.stat(path);
    const identity = identityOf(info);
    if (kept && identity !== undefined && kept.identity === identity) {
      this.#kept.set(path, kept);
      return kept.value;
    }
    const value = deepFreeze(this.parse(this.files.readText(path), path));
    // Read after the stat: an edit in between leaves a newer identity, which the next question sees.
    if (identity !== undefined && settled(info, readAt)) {
      this.#kept.set(path, { identity, value });
      if (this.#kept.size > this.limit) this.#kept.delete(this.#kept.keys().next().value!);
    }
    return value;
  }
}

/** The stat fields that change with the file or its content, or undefined where the platform lacks one. */
function identityOf(info: Deno.FileInfo): string | undefined {
  const { dev, ino, size, mtime, ctime } = info;
  if (ino === null || mtime === null || ctime === null) return undefined;
  return `${dev}:${ino}:${size}:${mtime.getTime()}:${ctime.getTime()}`;
}

/** Whether the file's last change is far enough before `readAt` that any later one shows in its times. */
function settled(info: Deno.FileInfo, readAt: number): boolean {
  return Math.max(info.mtime!.getTime(), info.ctime!.getTime()) < readAt - RACY_MS;
}

let nodeExistsSync: typeof fs.existsSync | undefined;

/** node:fs's `existsSync`, loaded at the first read: importing node:fs costs ~5–9 ms of a service's start. */
function existsSync(path: string): boolean {
  nodeExistsSync ??= (process.getBuiltinModule("node:fs") as typeof fs).existsSync;
  return nodeExistsSync(path);
}
