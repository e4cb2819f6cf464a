/**
 * Where a stage publishes: the `publish.path` of a manifest, checked when the workflow loads and filled with
 * the committing Run's values at each commit. A path stays inside the project and off the names weft never
 * touches (`.git`, `.weft`, `.env*`), whatever the placeholders hold: the values are identifiers, and the
 * slug keeps only lowercase letters, digits and `-`.
 *
 * @module
 */
import { isDeniedName } from "./project_paths.ts";
import { PUBLISH_PLACEHOLDERS } from "./workflow/manifest.ts";

/** What the placeholders of a publish path are filled with. */
export type PublishValues = Record<typeof PUBLISH_PLACEHOLDERS[number], string>;

/** Longest slug, in characters. */
export const MAX_SLUG_CHARS = 48;

/** A short, file-safe form of an intent: lowercase words joined by `-`, at most 48 characters; `run` when none. */
export function slugOf(intent: string): string {
  const words = intent.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .split(/[^a-z0-9]+/).filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX_SLUG_CHARS) break;
    slug = next;
  }
  return slug || words[0]?.slice(0, MAX_SLUG_CHARS) || "run";
}

/**
 * Why `path` cannot be a publish path, or undefined when it can: it must be relative, use only the known
 * placeholders, hold no `..`, no `.git`, `.weft` or `.env*` segment and no backslash, and name a `.md` file.
 */
export function publishPathProblem(path: string): string | undefined {
  if (path.includes("\0")) return "must not contain NUL";
  if (path.includes("\\")) return "must use `/` between folders, not `\\`";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return "must be relative to the project, not absolute";
  for (const [, name] of path.matchAll(/\{([^}]*)\}/g)) {
    if (!(PUBLISH_PLACEHOLDERS as readonly string[]).includes(name)) {
      return `unknown placeholder {${name}}; one of ${PUBLISH_PLACEHOLDERS.map((p) => `{${p}}`).join(", ")}`;
    }
  }
  const segments = path.split("/");
  if (segments.some((segment) => segment === "..")) return "must not contain `..`";
  if (segments.some((segment) => segment === "" || segment === ".")) {
    return "must not have empty or `.` segments";
  }
  if (segments.some(isDeniedName)) return "must not lead into .git, .weft or .env*";
  if (!path.endsWith(".md")) return "must name a Markdown file (ending in `.md`)";
  return undefined;
}

/** The folders of `path` before its first placeholder: what can be checked on disk when the workflow loads. */
export function fixedFolders(path: string): string[] {
  const segments = path.split("/").slice(0, -1);
  const open = segments.findIndex((segment) => segment.includes("{"));
  return open === -1 ? segments : segments.slice(0, open);
}

/** `path` with its placeholders filled from `values`. */
export function fillPublishPath(path: string, values: PublishValues): string {
  return path.replace(/\{([^}]*)\}/g, (_, name: keyof PublishValues) => values[name]);
}
