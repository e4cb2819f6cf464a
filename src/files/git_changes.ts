/**
 * The project's changes where it is a git repository, through git's plumbing alone and never the person's
 * index, HEAD, branches or working tree: a snapshot is a tree written from an index file of weft's own after
 * `git add -A`, its objects in an object folder of weft's own under `.weft/` that borrows the repository's
 * as an alternate; what changed since is `git diff-tree` between two such trees. The index is kept from one
 * snapshot to the next, so a file unchanged since is not hashed again; it is never a copy of the person's,
 * whose entries were made under the repository's filters, which weft runs none of. It sees what git sees: ignored files are not compared.
 * `.git`, `.weft` and `.env*` never enter a snapshot, and a path that still names one is dropped.
 * Every command runs hardened (`src/lib/hardened_git.ts`).
 *
 * @module
 */
import { join } from "node:path";
import { WeftError } from "../errors.ts";
import { isDeniedName } from "../engine/project_paths.ts";
import type { ChangedFile, ChangesSince } from "../engine/project_changes.ts";
import { bounded } from "../lib/unified_diff.ts";
import type { Repository } from "../lib/hardened_git.ts";

/** What a git mark starts with; the rest is the snapshot's tree id. */
export const GIT_MARK = "git:";

/** The names no snapshot takes, as pathspecs (any letter case, at any depth, and everything below them). */
const DENIED = ["**/.env*", "**/.weft", "**/.weft[. ]*", "**/.git", "**/.git[. ]*"]
  .flatMap((glob) => [glob, `${glob}/**`]);

const STATUS: Record<string, ChangedFile["status"]> = {
  A: "added",
  D: "deleted",
  M: "modified",
  T: "modified",
};

/** The project's files in `repo` as a tree of weft's own; `state` is weft's folder for them under `.weft/`. */
export async function gitSnapshot(repo: Repository, state: string): Promise<string> {
  const objects = join(state, "objects");
  await Deno.mkdir(objects, { recursive: true, mode: 0o700 });
  const env = {
    GIT_INDEX_FILE: join(state, "index"),
    GIT_OBJECT_DIRECTORY: objects,
    GIT_ALTERNATE_OBJECT_DIRECTORIES: repo.objects,
  };
  const excluded = DENIED.map((glob) => `:(exclude,glob,icase)${glob}`);
  await must(repo.git(["add", "--all", "--", ".", ...excluded], { env }), "add");
  // A name denied only now (a folder renamed to `.env.old`, say) leaves weft's index too.
  const denied = DENIED.map((glob) => `:(glob,icase)${glob}`);
  await must(repo.git(["rm", "-r", "-q", "--cached", "--ignore-unmatch", "--", ...denied], { env }), "rm");
  const tree = await must(repo.git(["write-tree"], { env }), "write-tree");
  return GIT_MARK + new TextDecoder().decode(tree).trim();
}

/** What changed from the snapshot `mark` to `now` (another snapshot), with at most `maxDiffBytes` of diff. */
export async function gitChanges(
  repo: Repository,
  state: string,
  mark: string,
  now: string,
  maxDiffBytes: number,
): Promise<ChangesSince> {
  const env = {
    GIT_OBJECT_DIRECTORY: join(state, "objects"),
    GIT_ALTERNATE_OBJECT_DIRECTORIES: repo.objects,
  };
  const [from, to] = [treeOf(mark), treeOf(now)];
  const names = await must(
    repo.git(["diff-tree", "-r", "-z", "--no-renames", "--name-status", from, to], { env }),
    "diff-tree",
  );
  const parts = new TextDecoder().decode(names).split("\0");
  const files: ChangedFile[] = [];
  let leak = false;
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const path = parts[i + 1];
    if (path.split("/").some(isDeniedName)) {
      leak = true;
      continue;
    }
    files.push({ path, status: STATUS[parts[i][0]] ?? "modified" });
  }
  if (!files.length) return { files, diff: "", cutBytes: 0 };
  const patch = await repo.git(
    ["diff-tree", "-r", "-p", "--no-renames", "--no-ext-diff", "--no-textconv", "--no-color", from, to],
    // One byte more than the bound, so a diff longer than it is cut at a line's end like any other.
    { env, keep: maxDiffBytes + 1 },
  );
  if (!patch.ok) throw failed("diff-tree");
  // A denied name in a snapshot can only come from a rule above missing it: show no diff rather than its text.
  if (leak) return { files, diff: "", cutBytes: patch.total };
  const { diff } = bounded(new TextDecoder().decode(patch.stdout), maxDiffBytes);
  return { files, diff, cutBytes: patch.total - new TextEncoder().encode(diff).length };
}

function treeOf(mark: string): string {
  const tree = mark.slice(GIT_MARK.length);
  if (!mark.startsWith(GIT_MARK) || !/^[0-9a-f]{40,64}$/.test(tree)) {
    throw new WeftError("TOOL_FAILED", "the recorded state of the project's files is not one weft wrote");
  }
  return tree;
}

async function must(result: ReturnType<Repository["git"]>, what: string): Promise<Uint8Array> {
  const done = await result;
  if (!done.ok) throw failed(what);
  return done.stdout;
}

function failed(what: string): WeftError {
  return new WeftError("TOOL_FAILED", `git could not compare the project's files (${what} failed)`);
}
