/**
 * The folder a command step runs in: a path relative to the project root that stays inside it. Refused when
 * absolute, when it climbs with `..`, or when any folder on the way is a symbolic link (a link can point
 * anywhere, and the project's files are not trusted to say where). Checked when a workflow loads and again
 * right before the command starts, since the folders may change in between.
 *
 * @module
 */
import { join } from "node:path";

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
 * The absolute folder `cwd` names under `root` (itself free of links), or why it cannot be used: it is not
 * a folder, or a segment on the way is a link.
 */
export function resolveCommandFolder(
  root: string,
  cwd: string | undefined,
): { ok: true; path: string } | { ok: false; reason: string } {
  if (cwd === undefined) return { ok: true, path: root };
  const parsed = commandFolderSegments(cwd);
  if (!parsed.ok) return parsed;
  let path = root;
  for (const segment of parsed.segments) {
    path = join(path, segment);
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(path);
    } catch {
      return { ok: false, reason: `${cwd} is not a folder of the project` };
    }
    if (info.isSymlink) {
      return { ok: false, reason: `${cwd} passes through a symbolic link, which may lead anywhere` };
    }
    if (!info.isDirectory) return { ok: false, reason: `${cwd} is not a folder of the project` };
  }
  return { ok: true, path };
}
