/**
 * The project's changes where it is no git repository: a snapshot is the SHA-256 of every file, kept in a
 * file of weft's own under `.weft/`, and what changed since is which files were added, removed or changed;
 * with no history to diff against, there is no diff. The walk is the agents' listing walk (no link
 * followed, `.git`, `.weft`, `.env*` and `node_modules` left out), bounded: past 20,000 files, or 10 s, the
 * rest of the project is not compared.
 *
 * @module
 */
import { join } from "node:path";
import { WeftError } from "../errors.ts";
import type { ChangedFile, ChangesSince } from "../engine/project_changes.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { randomId } from "../lib/tokens.ts";
import { replaceFile } from "../lib/replace_file.ts";
import { readConfined, walkConfined } from "./confined_reads.ts";

/** What a digest mark starts with; the rest names its file under weft's folder. */
export const DIGEST_MARK = "files:";

/** Bounds of one snapshot's walk. */
const WALK = { maxFiles: 20_000, limits: { entries: 50_000, ms: 10_000 }, skip: new Set(["node_modules"]) };

/** Files larger than this are told apart by size and time rather than read. */
const MAX_DIGESTED_BYTES = 16 * 1024 * 1024;

/** The digest of every file of the project `root`, by path. */
async function digests(root: string): Promise<Record<string, string>> {
  const { files } = await walkConfined(root, [], WALK);
  const result: Record<string, string> = {};
  for (const path of files) {
    const segments = path.split("/");
    try {
      result[path] = sha256Hex(await readConfined(root, segments, MAX_DIGESTED_BYTES));
    } catch {
      // Too large, or changed while read: its size and time still tell a change apart.
      const info = await Deno.lstat(join(root, ...segments)).catch(() => null);
      if (info) result[path] = `size:${info.size}:${info.mtime?.getTime() ?? 0}`;
    }
  }
  return result;
}

/** Records the project `root`'s files as they are now in `state` (weft's folder for it); returns the mark. */
export async function digestSnapshot(root: string, state: string): Promise<string> {
  await Deno.mkdir(state, { recursive: true, mode: 0o700 });
  const id = randomId(12);
  await replaceFile(join(state, `${id}.json`), JSON.stringify(await digests(root)), { mode: 0o600 });
  return DIGEST_MARK + id;
}

/** Which files of `root` changed since the snapshot `mark`; never a diff. */
export async function digestChanges(root: string, state: string, mark: string): Promise<ChangesSince> {
  const id = mark.slice(DIGEST_MARK.length);
  if (!/^[A-Za-z0-9_-]+$/.test(id)) {
    throw new WeftError("TOOL_FAILED", "the recorded state of the project's files is not one weft wrote");
  }
  let before: Record<string, string>;
  try {
    before = JSON.parse(await Deno.readTextFile(join(state, `${id}.json`)));
  } catch {
    throw new WeftError("TOOL_FAILED", "the recorded state of the project's files is gone from .weft/");
  }
  const now = await digests(root);
  const files: ChangedFile[] = [];
  for (const path of new Set([...Object.keys(before), ...Object.keys(now)])) {
    if (!Object.hasOwn(now, path)) files.push({ path, status: "deleted" });
    else if (!Object.hasOwn(before, path)) files.push({ path, status: "added" });
    else if (before[path] !== now[path]) files.push({ path, status: "modified" });
  }
  files.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  return { files, diff: "", cutBytes: 0 };
}
