/**
 * Differences between two revisions of an Artifact, as a person compares them: text line by line (Markdown
 * reads as the lines it was written in), and JSON by what changed where: a field added, removed or changed
 * at its path, a list item inserted or removed where it was (not every later item "changed"), and text
 * inside JSON again line by line. Pure: no DOM, no service, so it is tested on its own.
 *
 * @module
 */
import { editScript } from "../../lib/edit_script.ts";

/** One line of a line diff. */
export interface DiffLine {
  kind: "same" | "add" | "del";
  text: string;
}

/** One change between two JSON values, at a path like `plan.steps[2].title` (`""` is the whole value). */
export type JsonChange =
  | { kind: "added"; path: string; after: unknown }
  | { kind: "removed"; path: string; before: unknown }
  | { kind: "changed"; path: string; before: unknown; after: unknown; lines?: DiffLine[] };

/** What two revisions differ by: lines when both are text, changes by path otherwise. */
export type RevisionDiff = { kind: "text"; lines: DiffLine[] } | { kind: "json"; changes: JsonChange[] };

/** The lines of `before` and `after`, each kept, added or deleted; deletions come before additions. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const lines: DiffLine[] = [];
  let deleted: DiffLine[] = [];
  let added: DiffLine[] = [];
  const flush = () => {
    lines.push(...deleted, ...added);
    deleted = [];
    added = [];
  };
  for (const step of editScript(a, b)) {
    if (step.kind === "same") {
      flush();
      lines.push({ kind: "same", text: a[step.a] });
    } else if (step.kind === "del") deleted.push({ kind: "del", text: a[step.a] });
    else added.push({ kind: "add", text: b[step.b] });
  }
  flush();
  return lines;
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  // A final newline ends the last line; it does not start an empty one.
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** A JSON value as one canonical string: keys sorted, so key order never counts as a change. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const entries = Object.keys(value as Record<string, unknown>).sort()
    .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(",")}}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function keyPath(path: string, key: string): string {
  const plain = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
  if (!plain.startsWith('"')) return path ? `${path}.${plain}` : plain;
  return `${path}[${plain}]`;
}

/** Every change from `before` to `after`, in the order of `after` (removed fields where they were). */
export function jsonDiff(before: unknown, after: unknown, path = ""): JsonChange[] {
  if (canonical(before) === canonical(after)) return [];
  if (isObject(before) && isObject(after)) {
    const changes: JsonChange[] = [];
    for (const key of Object.keys(before)) {
      if (!(key in after)) changes.push({ kind: "removed", path: keyPath(path, key), before: before[key] });
    }
    for (const key of Object.keys(after)) {
      const at = keyPath(path, key);
      if (!(key in before)) changes.push({ kind: "added", path: at, after: after[key] });
      else changes.push(...jsonDiff(before[key], after[key], at));
    }
    return changes;
  }
  if (Array.isArray(before) && Array.isArray(after)) return arrayDiff(before, after, path);
  if (
    typeof before === "string" && typeof after === "string" && (before.includes("\n") || after.includes("\n"))
  ) {
    return [{ kind: "changed", path, before, after, lines: lineDiff(before, after) }];
  }
  return [{ kind: "changed", path, before, after }];
}

/**
 * Items matched by their whole value; a run of removed items followed by as many added ones at the same place
 * is read as those items changed (and compared inside), the rest as inserted or removed.
 */
function arrayDiff(before: unknown[], after: unknown[], path: string): JsonChange[] {
  const a = before.map(canonical);
  const b = after.map(canonical);
  const changes: JsonChange[] = [];
  let removed: number[] = [];
  let added: number[] = [];
  const flush = () => {
    const paired = Math.min(removed.length, added.length);
    for (let i = 0; i < paired; i++) {
      changes.push(...jsonDiff(before[removed[i]], after[added[i]], `${path}[${added[i]}]`));
    }
    for (const i of removed.slice(paired)) {
      changes.push({ kind: "removed", path: `${path}[${i}]`, before: before[i] });
    }
    for (const i of added.slice(paired)) {
      changes.push({ kind: "added", path: `${path}[${i}]`, after: after[i] });
    }
    removed = [];
    added = [];
  };
  for (const step of editScript(a, b)) {
    if (step.kind === "same") flush();
    else if (step.kind === "del") removed.push(step.a);
    else added.push(step.b);
  }
  flush();
  return changes;
}

/** The difference between two revisions' data. */
export function diffRevisions(before: unknown, after: unknown): RevisionDiff {
  if (typeof before === "string" && typeof after === "string") {
    return { kind: "text", lines: lineDiff(before, after) };
  }
  return { kind: "json", changes: jsonDiff(before, after) };
}

/**
 * The lines of a unified diff the service made (`---`/`+++` headers left out, each `@@` hunk header kept as
 * an unchanged line), to show it as this page shows any line diff.
 */
export function unifiedDiffLines(diff: string): DiffLine[] {
  return splitLines(diff).flatMap((line): DiffLine[] => {
    if (line.startsWith("--- ") || line.startsWith("+++ ")) return [];
    if (line.startsWith("+")) return [{ kind: "add", text: line.slice(1) }];
    if (line.startsWith("-")) return [{ kind: "del", text: line.slice(1) }];
    return [{ kind: "same", text: line.startsWith(" ") ? line.slice(1) : line }];
  });
}
