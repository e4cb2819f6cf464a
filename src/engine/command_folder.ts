/**
 * The folder a command step runs in: a path relative to the project root that stays inside it. Refused when
 * absolute, when it climbs with `..`, or when any folder on the way is a symbolic link (a link can point
 * anywhere, and the project's files are not trusted to say where). Checked when a workflow loads and again
 * right before the command starts, since the folders may change in between.
 *
 * @module
 */
import type { ProjectTree } from "./project_tree.ts";

/** The segments of `cwd`, or why it is refused (naming no path of the machine). */
export function commandFolderSegments(
  cwd: string,
): { ok: true; segments: string[] } | { ok: false; reason: string } {
  if (cwd.includes("\0")) return { ok: false, reason: "must not contain NUL" };
  if (/^[\\/]/.test(cwd) || /^[A-Za-z]:/.test(cwd)) {
    return { ok: false, reason: "must be a folder relative to the project root, not an absolute path" };
  }
  const segments = cwd.split(/[\\/]+/).filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) return { ok: false, reason: "must not leave the project (`..`)" };
  return { ok: true, segments };
}

/**
 * The segments of the folder `cwd` names in `tree` (none for the project root), or why it cannot be used:
 * it is not a folder, or a segment on the way is a link.
 */
export function resolveCommandFolder(
  tree: ProjectTree,
  cwd: string | undefined,
): { ok: true; segments: string[] } | { ok: false; reason: string } {
  if (cwd === undefined) return { ok: true, segments: [] };
  const parsed = commandFolderSegments(cwd);
  if (!parsed.ok) return parsed;
  for (let i = 1; i <= parsed.segments.length; i++) {
    const info = tree.stat(parsed.segments.slice(0, i));
    if (info?.kind === "symlink") {
      return { ok: false, reason: `${cwd} passes through a symbolic link, which may lead anywhere` };
    }
    if (info?.kind !== "folder") return { ok: false, reason: `${cwd} is not a folder of the project` };
  }
  return parsed;
}
