/**
 * The project's files as the engine reaches them while Runs go on: what agent tools list, read and edit, and
 * where stages publish. The engine owns this port and does no file I/O itself; the composition root hands
 * it an implementation (`src/files/project_folder.ts`), and tests an in-memory one.
 *
 * Every path is project-relative. An implementation refuses (`INVALID_REQUEST`) any path that is absolute,
 * holds `..` or names `.git`, `.weft` or `.env*` (`project_paths.ts`), and any that leads through a symbolic
 * link or to a file with a second hard link; it fails with `TOOL_FAILED` what is not a regular file, is
 * larger than asked for or changed while it was read.
 *
 * @module
 */

/** What one listing returns: project-relative paths in name order, and whether a bound cut it short. */
export interface FileListing {
  files: string[];
  truncated: boolean;
}

/** Options of {@linkcode ProjectFiles.write}. */
export interface WriteOptions {
  unchangedFrom?: string | null;
}

/** The project's files: read, listed and written under the rules above. */
export interface ProjectFiles {
  /**
   * The bytes of the file at `path`, or null when there is none; one larger than `maxBytes` (default 16 MiB)
   * is refused.
   */
  read(path: string, maxBytes?: number): Promise<Uint8Array | null>;
  /**
   * Creates or replaces the file at `path` with `text` atomically, creating its folders. With `unchangedFrom`
   * (the hex SHA-256 the file had when the caller decided to replace it, or null when there was none), the
   * file is compared again right before it is replaced, and any other content is left as it is: `CONFLICT`.
   */
  write(path: string, text: string, options?: WriteOptions): Promise<void>;
  /**
   * The regular files under the folder `dir` (`""`: the project), depth first in name order, never through a
   * link nor into a denied name or a folder named in `skip`; at most `maxFiles`, and the implementation may
   * bound the walk further (entries looked at, time). A `dir` that is no folder is refused.
   */
  list(dir: string, options: { maxFiles: number; skip: ReadonlySet<string> }): Promise<FileListing>;
}

/** The default bound of {@linkcode ProjectFiles.read}: a file larger than this is not one weft compares. */
export const DEFAULT_READ_BYTES = 16 * 1024 * 1024;
