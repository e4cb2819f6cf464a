/**
 * The project's folders as workflow loading sees them: the files under `workflows/`, and whether the
 * folders a workflow names (a command's `cwd`, the fixed part of a publish path) are real folders. The
 * engine owns this port and does no file I/O itself; the composition root hands it an implementation
 * (`src/files/project_tree.ts`), and tests an in-memory one.
 *
 * It is synchronous, unlike {@linkcode ProjectFiles}: a workflow loads (and its version is digested) in one
 * go, from a handful of small local files, and the loader that checks them is synchronous throughout.
 * Nothing here follows a symbolic link: a link is reported as one.
 *
 * @module
 */

/** What one name in the tree is, without following links; `size` and `mtimeMs` stamp it for change checks. */
export interface TreeEntry {
  name: string;
  kind: "file" | "folder" | "symlink" | "other";
  size: number;
  mtimeMs: number;
}

/** Read-only, synchronous access to the project's folders, by path segments relative to the project. */
export interface ProjectTree {
  /** The entries of the folder at `segments` in no particular order; null when there is no folder there. */
  entries(segments: readonly string[]): TreeEntry[] | null;
  /** What is at `segments`, null when nothing is. */
  stat(segments: readonly string[]): TreeEntry | null;
  /**
   * The bytes of the regular file at `segments`, opened without following a link anywhere on the way, with a
   * single hard link and at most `maxBytes`; a `WeftError` naming `label` (never a machine path) otherwise.
   */
  read(segments: readonly string[], maxBytes: number, label?: string): Uint8Array;
}
