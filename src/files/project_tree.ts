/**
 * The project folder as the engine's {@linkcode ProjectTree} port: workflow loading's synchronous view of
 * the folders under the project. Nothing is followed through a link (`lstat`), and files are read through
 * the checks of `confined_reads.ts` (opened once without following links, one hard link, bounded).
 *
 * @module
 */
import { join, resolve } from "node:path";
import type { ProjectTree, TreeEntry } from "../engine/project_tree.ts";
import { readConfinedSync } from "./confined_reads.ts";

const trees = new Map<string, ProjectTree>();

/**
 * The project folder `dir` as a tree, one per folder: what is derived from a tree (the command steps that
 * need trust) is cached by it. Links in `dir` itself are resolved, since reads compare what they opened
 * with paths under a link-free root; a folder that does not exist is an empty tree.
 */
export function projectTreeAt(dir: string): ProjectTree {
  let root: string;
  try {
    root = Deno.realPathSync(dir);
  } catch {
    root = resolve(dir);
  }
  let tree = trees.get(root);
  if (!tree) trees.set(root, tree = projectTree(root));
  return tree;
}

/** The project folder `root` (an absolute path without links, e.g. from `Deno.realPath`) as a tree. */
export function projectTree(root: string): ProjectTree {
  return {
    entries(segments) {
      const path = join(root, ...segments);
      let listed: Deno.DirEntry[];
      try {
        // Only a real folder is listed: a link to one is reported by `stat`, never walked into.
        if (!Deno.lstatSync(path).isDirectory) return null;
        listed = [...Deno.readDirSync(path)];
      } catch {
        return null;
      }
      const entries: TreeEntry[] = [];
      for (const entry of listed) {
        const info = statOf(join(path, entry.name), entry.name);
        if (info) entries.push(info);
      }
      return entries;
    },
    stat(segments) {
      return statOf(join(root, ...segments), segments.at(-1) ?? "");
    },
    read(segments, maxBytes, label = segments.join("/")) {
      return readConfinedSync(root, [...segments], maxBytes, label);
    },
  };
}

/** What is at `path`, not following a link; null when nothing is (or it vanished meanwhile). */
function statOf(path: string, name: string): TreeEntry | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch {
    return null;
  }
  const kind = info.isSymlink ? "symlink" : info.isDirectory ? "folder" : info.isFile ? "file" : "other";
  return { name, kind, size: info.size, mtimeMs: info.mtime?.getTime() ?? 0 };
}
