/**
 * What the agent tools that change the project do: `write_project_file` gives a file's whole text (creating
 * it and its folders), `patch_project_file` changes an existing file by exact search/replace edits. Edits are
 * search/replace rather than unified diffs because models write them reliably: an edit names the text it
 * replaces, not line numbers and context counts a model tends to get wrong, and a search that no longer
 * matches (or matches twice) is refused with a message the model can act on, instead of applying where it
 * should not. Bounds and the timeline event of each write are here too; confinement is the port's rule.
 *
 * @module
 */
import { invalid, WeftError } from "../errors.ts";
import { unifiedDiff } from "../lib/unified_diff.ts";
import { filePath, utf8 } from "./file_tools.ts";
import type { ProjectFiles } from "./project_files.ts";

/** Largest file an edit may read or leave, in bytes of UTF-8. */
export const MAX_EDIT_BYTES = 256 * 1024;
/** How many files one agent call may write. */
export const MAX_WRITES_PER_CALL = 64;
/** How many search/replace edits one patch may carry. */
export const MAX_PATCH_EDITS = 64;
/** How much of each write's unified diff its timeline event keeps, in bytes. */
export const MAX_WRITE_DIFF_BYTES = 16 * 1024;

/** The timeline event of one write. */
export const FILE_WRITTEN = "project_file_written";

/** One edit a tool asks for. */
export type FileEdit =
  | { kind: "write"; content: string }
  | { kind: "patch"; edits: { search: string; replace: string }[] };

/** What an edit did, as the tool answers. */
export interface EditOutcome {
  path: string;
  status: "created" | "modified" | "unchanged";
  /** The file's size afterwards, in bytes. */
  size: number;
}

/** An edit worked out against the file as it is: what to write, and the event that records it. */
export interface PlannedEdit {
  outcome: EditOutcome;
  /** The text to write; absent when the file would not change. */
  text?: string;
  /** The fields of its timeline event (with the calling tool's ids added by the caller). */
  event?: Record<string, unknown>;
}

/** Reads the file at `path` and works out `edit` against it, without writing anything. */
export async function planEdit(files: ProjectFiles, path: string, edit: FileEdit): Promise<PlannedEdit> {
  const relative = filePath(path);
  const bytes = await files.read(relative, MAX_EDIT_BYTES);
  const before = bytes === null ? null : utf8(bytes, relative);
  const after = edit.kind === "write" ? edit.content : patched(relative, before, edit.edits);
  const size = new TextEncoder().encode(after).length;
  if (size > MAX_EDIT_BYTES) {
    throw invalid(`${relative} would take ${size} bytes; an edit may leave at most ${MAX_EDIT_BYTES}`);
  }
  const status = before === null ? "created" : before === after ? "unchanged" : "modified";
  const outcome: EditOutcome = { path: relative, status, size };
  if (status === "unchanged") return { outcome };
  const { diff, cutBytes } = unifiedDiff(relative, before, after, MAX_WRITE_DIFF_BYTES);
  return { outcome, text: after, event: { path: relative, status, size, diff, diffCutBytes: cutBytes } };
}

/** `before` with each edit applied in order; each search must occur exactly once in the text as it then is. */
function patched(path: string, before: string | null, edits: { search: string; replace: string }[]): string {
  if (before === null) {
    throw new WeftError("TOOL_FAILED", `no such file: ${path}; write_project_file creates a file`);
  }
  let text = before;
  edits.forEach(({ search, replace }, index) => {
    const at = text.indexOf(search);
    const which = edits.length > 1 ? `edit ${index + 1}: ` : "";
    if (at < 0) {
      throw invalid(
        `${which}the search text does not occur in ${path}; read the file again and copy it exactly`,
      );
    }
    if (text.indexOf(search, at + 1) >= 0) {
      throw invalid(
        `${which}the search text occurs more than once in ${path}; include more of the lines around it`,
      );
    }
    text = text.slice(0, at) + replace + text.slice(at + search.length);
  });
  return text;
}
