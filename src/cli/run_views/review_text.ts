/**
 * What an action asks a person to judge, as terminal lines: the task it is about (id, title, description,
 * the requirements it serves and their acceptance criteria), what the agent says it did, how the verify
 * command went with the useful part of its output, the files changed, and their diff file by file as a code
 * review shows it (line numbers, `+`/`−` marked and coloured, binary and very long files summarized). A
 * revision's confirmation shows what the edit changes, or says there is no difference. Everything that comes
 * from the repository, the agent or a command is made visible first (`visibleText`).
 *
 * @module
 */

import type { ActionReview, ChangesEvidence, ReviewItem, VerifyEvidence } from "../../client/views.ts";
import {
  type DiffFile,
  type DiffFileLine,
  diffFiles,
  isChangesResult,
  summarized,
} from "../../lib/diff_files.ts";
import { visibleLine, visibleText } from "../../lib/visible_text.ts";
import { argvText } from "../../lib/argv_text.ts";
import { indent, paint, type Stream } from "../terminal/format.ts";

/** A review as terminal lines: what to judge first, then the diff as one block of lines per file. */
export interface ReviewLines {
  head: string[];
  files: string[][];
}

/** A revision's confirmation context, as the service writes it. */
interface RevisionContext {
  path: string;
  fromRevision: number;
  markdownDiff: string;
  dataDiff: string;
}

/**
 * Whether `request` shows anything this module renders: a task, evidence, a revision's change, or a context
 * that is what a `changes` step wrote (shown as the review of those changes, not as its fields).
 */
export function hasReview(request: unknown): boolean {
  const value = request as ActionReview & { context?: unknown } | undefined;
  return Boolean(
    value?.item || value?.evidence || isRevision(value?.context) || isChangesResult(value?.context),
  );
}

/** The review parts of an action's `request` as lines for `stream`. */
export function reviewLines(request: unknown, stream: Stream): ReviewLines {
  const { item, evidence, context } = (request ?? {}) as ActionReview & { context?: unknown };
  if (isRevision(context)) return revisionLines(context, stream);
  const head: string[] = [];
  if (item) head.push(...itemLines(item, stream));
  if (evidence?.summary) {
    head.push(
      paint("bold", "What the agent says it did:", stream),
      indent(visibleText(evidence.summary.trim())),
    );
  }
  if (evidence?.verify) head.push(...verifyLines(evidence.verify, stream));
  const changes = evidence?.changes ?? (isChangesResult(context) ? context : undefined);
  const files = changes ? changesLines(changes, head, stream) : [];
  return { head, files };
}

function itemLines(item: ReviewItem, stream: Stream): string[] {
  const attempt = item.attempt > 1 ? paint("dim", ` (attempt ${item.attempt})`, stream) : "";
  const lines = [
    `${paint("bold", `Task ${visibleLine(item.id)}`, stream)}: ${visibleLine(item.title)}${attempt}`,
  ];
  if (item.description) lines.push(indent(visibleText(item.description.trim())));
  for (const requirement of item.requirements ?? []) {
    lines.push(
      `  serves ${paint("bold", visibleLine(requirement.id), stream)}: ${visibleLine(requirement.statement)}`,
    );
    for (const criterion of requirement.acceptance) lines.push(`    ✓ ${visibleLine(criterion)}`);
  }
  return lines;
}

/** The words of a verify's outcome. */
const OUTCOME = { passed: "passed", failed: "failed", timed_out: "timed out" } as const;

function verifyLines(verify: VerifyEvidence, stream: Stream): string[] {
  const exit = verify.exitCode === null ? "" : ` · exit ${verify.exitCode}`;
  const command = verify.run ? ` · ${argvText(verify.run)}` : "";
  const tone = verify.outcome === "passed" ? "green" : "red";
  const lines = [
    `${paint("bold", "Verify:", stream)} ${paint(tone, OUTCOME[verify.outcome], stream)}${exit} · ${
      duration(verify.durationMs)
    }${paint("dim", command, stream)}`,
  ];
  if (verify.outcome !== "passed" && verify.excerpt) lines.push(indent(visibleText(verify.excerpt), 4));
  return lines;
}

function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Adds the list of changed files to `head`; returns each file's diff lines. */
function changesLines(changes: ChangesEvidence, head: string[], stream: Stream): string[][] {
  const parsed = new Map(diffFiles(changes.diff).map((file) => [file.path, file]));
  if (!changes.files.length) {
    head.push(`${paint("bold", "Files changed:", stream)} none`);
    return [];
  }
  head.push(paint("bold", `Files changed (${changes.files.length}):`, stream));
  const width = Math.max(...changes.files.map((file) => file.status.length));
  for (const file of changes.files) {
    const diff = parsed.get(file.path);
    const counts = diff && !diff.binary
      ? `  ${paint("green", `+${diff.added}`, stream)} ${paint("red", `−${diff.removed}`, stream)}`
      : diff?.binary
      ? paint("dim", "  binary", stream)
      : "";
    head.push(`  ${file.status.padEnd(width)}  ${visibleLine(file.path)}${counts}`);
  }
  const blocks = [...parsed.values()].map((file) => fileLines(file, stream));
  const missing = changes.files.filter((file) => !parsed.has(file.path)).length;
  if (changes.cutBytes > 0 || (missing && changes.diff)) {
    blocks.push([paint(
      "dim",
      `(the diff is cut here: ${kib(changes.cutBytes)} more, ${missing} file(s) not shown; open them in ` +
        "your editor or Studio)",
      stream,
    )]);
  } else if (!changes.diff) {
    blocks.push([paint("dim", "(no line diff: the project is not a git repository)", stream)]);
  }
  return blocks;
}

function kib(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${Math.ceil(bytes / 1024)} KiB`;
}

/** One file's diff: a header, then its hunks with line numbers, or why it is summarized. */
function fileLines(file: DiffFile, stream: Stream): string[] {
  const counts = file.binary ? "binary" : `+${file.added} −${file.removed}`;
  const lines = ["", paint("bold", `── ${visibleLine(file.path)} · ${file.status} · ${counts}`, stream)];
  if (file.binary) return [...lines, paint("dim", "   a binary file: not shown", stream)];
  if (summarized(file)) {
    return [
      ...lines,
      paint("dim", `   ${file.added + file.removed} changed lines: too long to show here`, stream),
    ];
  }
  const width = String(
    Math.max(
      0,
      ...file.hunks.flatMap((hunk) =>
        hunk.lines.map((line) => Math.max(line.oldLine ?? 0, line.newLine ?? 0))
      ),
    ),
  ).length;
  for (const hunk of file.hunks) {
    lines.push(paint("cyan", visibleLine(hunk.header), stream));
    for (const line of hunk.lines) lines.push(diffLine(line, width, stream));
  }
  return lines;
}

function diffLine(line: DiffFileLine, width: number, stream: Stream): string {
  const number = (value?: number) => (value === undefined ? "" : String(value)).padStart(width);
  const gutter = paint("dim", `${number(line.oldLine)} ${number(line.newLine)} │ `, stream);
  const text = visibleLine(line.text);
  switch (line.kind) {
    case "add":
      return `${gutter}${paint("green", `+ ${text}`, stream)}`;
    case "del":
      return `${gutter}${paint("red", `- ${text}`, stream)}`;
    case "note":
      return `${gutter}${paint("dim", `  \\ ${text}`, stream)}`;
    default:
      return `${gutter}  ${text}`;
  }
}

function isRevision(context: unknown): context is RevisionContext {
  const value = context as Partial<RevisionContext> | null | undefined;
  return typeof value?.path === "string" && typeof value.markdownDiff === "string" &&
    typeof value.dataDiff === "string";
}

/** A revision: the edit it brings back, as what changes in the Markdown and in the data, never both whole. */
function revisionLines(context: RevisionContext, stream: Stream): ReviewLines {
  const path = visibleLine(context.path);
  const head = [
    `Your edit of ${
      paint("bold", path, stream)
    }, brought back into revision ${context.fromRevision}. Once you ` +
    "confirm, it is committed as the next revision and published over your file.",
  ];
  const files: string[][] = [];
  for (const [what, diff] of [["The Markdown", context.markdownDiff], ["The data", context.dataDiff]]) {
    const [file] = diffFiles(diff);
    if (!file || (!file.added && !file.removed)) head.push(`${what}: no difference.`);
    else {
      head.push(
        `${what}: ${paint("green", `+${file.added}`, stream)} ${paint("red", `−${file.removed}`, stream)}`,
      );
      files.push(fileLines({ ...file, path: what === "The data" ? "data" : context.path }, stream));
    }
  }
  return { head, files };
}
