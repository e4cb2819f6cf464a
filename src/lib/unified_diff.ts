/**
 * A unified diff of two texts, as `diff -u` and `git diff` write one (`---`/`+++` headers, `@@` hunks with
 * three lines of context, `\ No newline at end of file`), cut to a byte bound at a line's end so it stays
 * readable; the bytes left out are counted.
 *
 * @module
 */
import { editScript } from "./edit_script.ts";

/** Lines of unchanged context around each change. */
const CONTEXT = 3;

/** A diff cut to its bound: the text kept, and how many bytes of it were left out. */
export interface BoundedDiff {
  diff: string;
  cutBytes: number;
}

/**
 * The unified diff from `before` to `after` of the file `path` (`null` for a side where there is no file),
 * at most `maxBytes` long; `""` when they are equal.
 */
export function unifiedDiff(
  path: string,
  before: string | null,
  after: string | null,
  maxBytes: number,
): BoundedDiff {
  if (before === after) return { diff: "", cutBytes: 0 };
  const a = linesOf(before ?? "");
  const b = linesOf(after ?? "");
  const out = [
    `--- ${before === null ? "/dev/null" : `a/${path}`}`,
    `+++ ${after === null ? "/dev/null" : `b/${path}`}`,
  ];
  const steps = editScript(compared(a), compared(b));
  // The indexes of the steps that change something, grouped into hunks that share context.
  const changed = steps.flatMap((step, index) => step.kind === "same" ? [] : [index]);
  let i = 0;
  while (i < changed.length) {
    let end = i;
    while (end + 1 < changed.length && changed[end + 1] - changed[end] <= 2 * CONTEXT + 1) end++;
    const from = Math.max(0, changed[i] - CONTEXT);
    const to = Math.min(steps.length, changed[end] + CONTEXT + 1);
    out.push(...hunk(steps.slice(from, to), a, b));
    i = end + 1;
  }
  return bounded(out.map((line) => line + "\n").join(""), maxBytes);
}

/** Cuts `text` to at most `maxBytes` at the end of a line, counting the bytes left out. */
export function bounded(text: string, maxBytes: number): BoundedDiff {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return { diff: text, cutBytes: 0 };
  let end = bytes.lastIndexOf(0x0a, maxBytes - 1) + 1;
  // A first line longer than the bound is cut where UTF-8 allows, rather than dropped whole.
  if (end === 0) end = boundary(bytes, maxBytes);
  return { diff: new TextDecoder().decode(bytes.subarray(0, end)), cutBytes: bytes.length - end };
}

/** The largest index ≤ `at` that starts a UTF-8 character. */
function boundary(bytes: Uint8Array, at: number): number {
  let end = at;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return end;
}

interface Lines {
  lines: string[];
  /** Whether the text ends with a line break (a diff says when it does not). */
  finalNewline: boolean;
}

/**
 * The lines as compared: a last line without a line break differs from the same text with one, as `diff`
 * tells them apart.
 */
function compared(side: Lines): string[] {
  if (side.finalNewline || !side.lines.length) return side.lines;
  return [...side.lines.slice(0, -1), `${side.lines[side.lines.length - 1]}\0`];
}

function linesOf(text: string): Lines {
  if (text === "") return { lines: [], finalNewline: true };
  const lines = text.split("\n");
  const finalNewline = lines[lines.length - 1] === "";
  if (finalNewline) lines.pop();
  return { lines, finalNewline };
}

type Step = ReturnType<typeof editScript>[number];

function hunk(steps: Step[], a: Lines, b: Lines): string[] {
  const first = steps[0];
  const startA = first.kind === "add" ? startOf(steps, "a") : (first as { a: number }).a;
  const startB = first.kind === "del" ? startOf(steps, "b") : (first as { b: number }).b;
  const countA = steps.filter((step) => step.kind !== "add").length;
  const countB = steps.filter((step) => step.kind !== "del").length;
  const lines = [`@@ -${range(startA, countA)} +${range(startB, countB)} @@`];
  for (const step of steps) {
    if (step.kind === "same") lines.push(...line(" ", a, step.a));
    else if (step.kind === "del") lines.push(...line("-", a, step.a));
    else lines.push(...line("+", b, step.b));
  }
  return lines;
}

/** Where a hunk that opens without a line of side `side` starts on it: at its first line that it has. */
function startOf(steps: Step[], side: "a" | "b"): number {
  for (const step of steps) {
    if (side === "a" && step.kind !== "add") return step.a;
    if (side === "b" && step.kind !== "del") return step.b;
  }
  // A hunk with no line of this side at all (a file created or emptied) starts before its first line.
  return 0;
}

function range(start: number, count: number): string {
  // Unified diffs count lines from 1; an empty range names the line before it.
  const first = count === 0 ? start : start + 1;
  return count === 1 ? `${first}` : `${first},${count}`;
}

function line(mark: string, side: Lines, index: number): string[] {
  const text = `${mark}${side.lines[index]}`;
  return index === side.lines.length - 1 && !side.finalNewline
    ? [text, "\\ No newline at end of file"]
    : [text];
}
