/**
 * What changed in the project's files since a point in a Run: the engine marks the files as they are when a
 * Run starts, a stage is entered or a list item begins (when a `changes` step will want to compare with
 * that point), and a `changes` step asks what changed since. The engine owns this port and does no file I/O
 * itself; the composition root hands it an implementation (`src/files/project_changes.ts`: git plumbing where
 * the project is a git repository, file digests elsewhere), tests an in-memory one.
 *
 * Marks are opaque strings the Run keeps; an implementation keeps what a mark names for as long as the
 * project's `.weft/` lives. Neither `.git`, `.weft` nor `.env*` is ever compared or shown.
 *
 * @module
 */

/** How one file changed. */
export interface ChangedFile {
  /** The project-relative path. */
  path: string;
  status: "added" | "modified" | "deleted";
}

/** What changed since a mark: the files, and their unified diff cut to a bound. */
export interface ChangesSince {
  /** In path order. */
  files: ChangedFile[];
  /** The unified diff of those files; `""` where the implementation compares digests only (no git). */
  diff: string;
  /** How many bytes of the diff were left out to stay within the bound. */
  cutBytes: number;
}

/** The project's files, compared over time. */
export interface ProjectChanges {
  /** Records the project's files as they are now; the mark names that state. */
  mark(): Promise<string>;
  /** What changed from the state `mark` names to now, with at most `maxDiffBytes` of diff. */
  since(mark: string, maxDiffBytes: number): Promise<ChangesSince>;
}
