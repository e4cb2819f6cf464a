/**
 * Which project paths weft reads or writes at all, the one rule every file port applies: relative to the
 * project, no `..`, and never `.git`, `.weft` or `.env*` in any letter case. Pure: the implementations of the
 * file ports (`src/files/`) and their in-memory stand-ins apply it, so it cannot drift between them.
 *
 * @module
 */
import { invalid } from "../errors.ts";

/**
 * The name a file system compares: case folded, Unicode composed, trailing dots and spaces dropped (Windows
 * ignores them), so that `.ENV`, `.Env` and `.env.` all meet the same rule as `.env`.
 */
export function comparableName(name: string): string {
  return name.normalize("NFC").toLowerCase().replace(/[. ]+$/, "");
}

/** Whether a path segment is never shown to an agent nor written: `.git`, `.weft` and `.env*`, in any case. */
export function isDeniedName(name: string): boolean {
  const folded = comparableName(name);
  return folded === ".git" || folded === ".weft" || folded.startsWith(".env");
}

/**
 * Splits a relative path into its segments, refusing absolute paths, `..`, NUL and denied names
 * (`INVALID_REQUEST`, naming no machine path).
 */
export function confinedSegments(path: string): string[] {
  if (path.includes("\0")) throw invalid("path must not contain NUL");
  if (/^[\\/]/.test(path) || /^[A-Za-z]:/.test(path)) {
    throw invalid("path must be relative to the project, not absolute");
  }
  const segments = path.split(/[\\/]+/).filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) throw invalid("path must not contain `..`");
  if (segments.some(isDeniedName)) {
    throw invalid("path is not for agents nor publishing: .git, .weft and .env* are off limits");
  }
  return segments;
}
