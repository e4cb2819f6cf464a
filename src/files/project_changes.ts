/**
 * The project's files compared over time, as the engine's {@linkcode ProjectChanges} port: where the project
 * folder is the top of a git repository's work tree, by git's plumbing (`git_changes.ts`: the files git
 * sees, with a unified diff); elsewhere by the digest of every file (`digest_changes.ts`: which files
 * changed, no diff). A mark says which it is, so a mark keeps its meaning if the project becomes a
 * repository (or stops being one) in between; each `since` takes a new snapshot of the same kind.
 *
 * @module
 */
import { WeftError } from "../errors.ts";
import type { ProjectChanges } from "../engine/project_changes.ts";
import { openRepository } from "../lib/hardened_git.ts";
import { GIT_MARK, gitChanges, gitSnapshot } from "./git_changes.ts";
import { DIGEST_MARK, digestChanges, digestSnapshot } from "./digest_changes.ts";

/**
 * The changes of the project folder `root` (an absolute path without links), keeping what its marks name
 * in `state` (a folder of weft's own under `.weft/`).
 */
export function projectChanges(root: string, state: string): ProjectChanges {
  return {
    async mark() {
      const repo = await openRepository(root);
      return repo ? await gitSnapshot(repo, state) : await digestSnapshot(root, state);
    },
    async since(mark, maxDiffBytes) {
      if (mark.startsWith(DIGEST_MARK)) return await digestChanges(root, state, mark);
      const repo = mark.startsWith(GIT_MARK) ? await openRepository(root) : undefined;
      if (!repo) {
        throw new WeftError(
          "TOOL_FAILED",
          "the project's files were recorded from its git repository, which is no longer there",
        );
      }
      return await gitChanges(repo, state, mark, await gitSnapshot(repo, state), maxDiffBytes);
    },
  };
}
