/**
 * The part of a command's output a person needs to see why it failed: a test runner's failures (TAP's
 * `not ok`, `FAIL`, `✖`, errors and assertion messages, with the lines after them that explain) and its
 * counts (`# fail 1`, `ok | 3 passed | 1 failed`, `Tests: 1 failed`, `=== 1 failed in 0.2s ===`), else the
 * output's last lines. Runners end with timings (`# duration_ms 326.6`), so the last line alone says little.
 * Pure: no imports, so any layer can use it.
 *
 * @module
 */

/** How large an excerpt may be. */
export interface ExcerptLimits {
  lines: number;
  chars: number;
}

/** The default bound: a screenful that still reads at a glance. */
export const EXCERPT_LIMITS: ExcerptLimits = { lines: 24, chars: 1600 };

/** A line that reports a failure: the start of what a person should read. */
const FAILURE = [
  /^\s*not ok\b/, // TAP
  /^\s*✖/, // node --test (spec)
  /(?:^\s*|\.\.\. )(?:FAIL|FAILED|FAILURES|ERRORS?)\b/, // jest, pytest, deno
  /\b(?:\w+Error|Exception)\b(?: \[\w+\])?:/, // AssertionError: …, TypeError [ERR_X]: …
  /^\s*(?:error|panic)(?:\[\w+\])?:/i, // compilers, cargo, go
  /^E\s{2,}\S/, // pytest's explanation lines
];

/** A line that counts what ran: kept whatever else is. */
const SUMMARY = [
  /^\s*[#ℹ]\s*(?:tests|pass|fail)\s+\d+\s*$/, // TAP, node --test
  /^\s*(?:ok|FAILED)\s+\|\s+\d+\s+passed/, // deno test
  /^\s*(?:Tests|Test Suites|Test Files):\s+\d/, // jest, vitest
  /^=*\s*\d+ (?:passed|failed|errors?)\b.*\bin [\d.]+s\b/, // pytest
  /^\s*\d+\s+(?:passing|failing)\b/, // mocha
];

/** Lines that explain nothing: stack frames, TAP's YAML markers and timings. */
const NOISE =
  /^\s*(?:---|\.\.\.|duration_ms:.*|location:.*|failureType:.*|stack: \|-|at\s.*:\d+.*|\{|\})\s*$/;

/** Colour and style sequences: cosmetic, and they hide words from the patterns. */
// deno-lint-ignore no-control-regex -- the escape character is what it finds
const STYLE = /\x1b\[[0-9;]*m/g;

/** Lines shown after a failure line: where runners say what was expected and what came. */
const AFTER = 8;

/** The longest line an excerpt shows whole; a longer one is shortened. */
const LINE_CHARS = 200;

/** The useful part of a command's output (`stdout` then `stderr`), at most `limits` large. */
export function outputExcerpt(
  stdout: string,
  stderr: string,
  limits: ExcerptLimits = EXCERPT_LIMITS,
): string {
  const lines = [stdout, stderr].map((text) => text.replace(STYLE, "").replace(/\s+$/, "")).filter(Boolean)
    .join("\n").split(/\r?\n/).map(shortened);
  const matches = (patterns: RegExp[]) =>
    lines.flatMap((line, i) => patterns.some((pattern) => pattern.test(line)) ? [i] : []);
  const summaries = matches(SUMMARY);
  const failures = matches(FAILURE).filter((i) => !summaries.includes(i));
  if (!failures.length && !summaries.length) return tail(lines, limits);
  // The counts claim their room first; then each failure with the lines that explain it, while room is
  // left (a line and a separator each). A runner that repeats its failures at the end (node's spec
  // reporter) shows each once.
  const chosen = new Set<number>();
  let lineRoom = limits.lines;
  let charRoom = limits.chars;
  const take = (i: number) => {
    if (chosen.has(i)) return true;
    // A line right after a chosen one needs no "…" before it.
    const cost = chosen.has(i - 1) ? 1 : 2;
    if (lineRoom < cost || charRoom < lines[i].length + 2 * cost) return false;
    chosen.add(i);
    lineRoom -= cost;
    charRoom -= lines[i].length + 2 * cost;
    return true;
  };
  summaries.forEach(take);
  const seen = new Set<string>();
  for (const at of failures) {
    if (seen.has(lines[at].trim())) continue;
    seen.add(lines[at].trim());
    if (!take(at)) break;
    for (let i = at + 1, taken = 0; i < lines.length && taken < AFTER; i++) {
      if (summaries.includes(i) || /^\s*(?:not )?ok\b|^\s*[✖✔]/.test(lines[i])) break;
      if (!lines[i].trim() || NOISE.test(lines[i])) continue;
      if (failures.includes(i)) seen.add(lines[i].trim());
      if (!take(i)) break;
      taken++;
    }
  }
  const picked = [...chosen].sort((a, b) => a - b);
  const out: string[] = [];
  picked.forEach((index, n) => {
    // A gap of blank lines and noise reads as nothing left out; one with words says so.
    const gap = n > 0 ? lines.slice(picked[n - 1] + 1, index) : [];
    if (gap.some((line) => line.trim() && !NOISE.test(line))) out.push("…");
    out.push(lines[index]);
  });
  return out.join("\n");
}

function shortened(line: string): string {
  return line.length <= LINE_CHARS ? line : `${line.slice(0, LINE_CHARS - 1)}…`;
}

/** The first line of `text` that reports a failure (a test runner's `not ok …`, `FAIL …`, an error), if any. */
export function failureLine(text: string): string | undefined {
  return text.replace(STYLE, "").split(/\r?\n/).find((line) => FAILURE.some((pattern) => pattern.test(line)))
    ?.trim();
}

/** The last lines of `lines`, within `limits`. */
function tail(lines: string[], limits: ExcerptLimits): string {
  const kept = lines.filter((line, i) => line.trim() || i < lines.length - 1).slice(-limits.lines);
  return capChars(kept, limits.chars, true);
}

/** `lines` joined, cut to `chars` at a line's end (from the end when `fromEnd`), a long line shortened. */
function capChars(lines: string[], chars: number, fromEnd = false): string {
  const out: string[] = [];
  let size = 0;
  for (const line of fromEnd ? [...lines].reverse() : lines) {
    const room = chars - size - (out.length ? 1 : 0);
    if (room <= 1) break;
    const shown = line.length <= room ? line : `${line.slice(0, room - 1)}…`;
    out.push(shown);
    size += shown.length + (out.length > 1 ? 1 : 0);
  }
  return (fromEnd ? out.reverse() : out).join("\n");
}
