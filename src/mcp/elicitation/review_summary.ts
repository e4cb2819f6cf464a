/**
 * A review in the few lines an IDE's form can show (forms hold only text, and a long one buries the buttons):
 * the task and what it serves, what the agent says it did, how verify went (with what failed), the files
 * changed with their counts, and where the person reads the whole diff: `weft attach` in a terminal, or
 * Studio. A revision's edit is summarized the same way, saying "no difference" where there is none.
 *
 * @module
 */

import type { ActionReview, RunView } from "../../engine/views.ts";
import { diffFiles, isChangesResult } from "../../lib/diff_files.ts";
import { visibleLine } from "../../lib/visible_text.ts";
import { argvText } from "../../lib/argv_text.ts";

/** How long each part of the summary may be, in characters. */
const PART_CHARS = 300;
/** How many files it names; the rest are counted. */
const FILES_NAMED = 8;
/** How many changed lines of a revision's data it quotes. */
const CHANGED_LINES = 12;
/** How many lines of a failing verify's output it quotes. */
const EXCERPT_LINES = 4;

/** The compact text of `request`'s review, or undefined when it has none to show. */
export function reviewSummary(run: RunView, request: unknown): string | undefined {
  const { item, evidence, context } = (request ?? {}) as ActionReview & { context?: unknown };
  const revision = revisionSummary(context);
  const changes = evidence?.changes ?? (isChangesResult(context) ? context : undefined);
  if (!item && !evidence && !revision && !changes) return undefined;
  const lines: string[] = [];
  if (revision) lines.push(...revision);
  if (item) {
    lines.push(
      `Task ${line(item.id)} — ${line(item.title)}${item.attempt > 1 ? ` (attempt ${item.attempt})` : ""}`,
    );
    for (const requirement of item.requirements ?? []) {
      const criteria = requirement.acceptance.map(line).join("; ");
      lines.push(
        `Serves ${line(requirement.id)}: ${line(requirement.statement)}${
          criteria ? ` — accepted when: ${criteria}` : ""
        }`,
      );
    }
  }
  if (evidence?.summary) lines.push(`The agent says: ${line(evidence.summary)}`);
  const verify = evidence?.verify;
  if (verify) {
    const exit = verify.exitCode === null ? "" : ` (exit ${verify.exitCode})`;
    lines.push(
      `Verify: ${verify.outcome.replace("_", " ")}${exit}${
        verify.run ? ` — ${line(argvText(verify.run))}` : ""
      }`,
    );
    if (verify.outcome !== "passed" && verify.excerpt) {
      lines.push(...verify.excerpt.split("\n").slice(0, EXCERPT_LINES).map((text) => `  ${line(text)}`));
    }
  }
  if (changes) {
    const counts = new Map(diffFiles(changes.diff).map((file) => [file.path, file]));
    const named = changes.files.slice(0, FILES_NAMED).map((file) => {
      const diff = counts.get(file.path);
      const how = diff ? (diff.binary ? "binary" : `+${diff.added} −${diff.removed}`) : file.status;
      return `${line(file.path)} (${diff ? `${file.status}, ${how}` : how})`;
    });
    const more = changes.files.length - named.length;
    lines.push(
      changes.files.length
        ? `Files changed (${changes.files.length}): ${named.join(", ")}${
          more > 0 ? `, and ${more} more` : ""
        }`
        : "Files changed: none",
    );
  }
  if (changes || revision) {
    lines.push(
      `The whole diff, file by file: \`weft attach ${run.runId}\` in a terminal, or Studio (\`weft studio\`, ` +
        `then this Run, ${run.runId}).`,
    );
  }
  return lines.join("\n");
}

/** A line of untrusted text: visible, on one line, cut to a part's length. */
function line(text: string): string {
  const shown = visibleLine(text.trim());
  return shown.length <= PART_CHARS ? shown : `${shown.slice(0, PART_CHARS - 1)}…`;
}

/** A revision's change in words: what the edit changes in the Markdown and in the data. */
function revisionSummary(context: unknown): string[] | undefined {
  const value = context as {
    path?: unknown;
    fromRevision?: unknown;
    markdownDiff?: unknown;
    dataDiff?: unknown;
  };
  if (
    typeof value?.path !== "string" || typeof value.markdownDiff !== "string" ||
    typeof value.dataDiff !== "string"
  ) {
    return undefined;
  }
  const change = (diff: string) => {
    const [file] = diffFiles(diff);
    return !file || (!file.added && !file.removed)
      ? "no difference"
      : `+${file.added} −${file.removed} lines`;
  };
  // What changed in the data, as its changed lines alone: the form shows the change, not both versions whole.
  const changed = (diffFiles(value.dataDiff)[0]?.hunks ?? []).flatMap((hunk) => hunk.lines)
    .filter((entry) => entry.kind === "add" || entry.kind === "del")
    .map((entry) => `  ${entry.kind === "add" ? "+" : "-"} ${line(entry.text)}`);
  return [
    `Your edit of ${
      line(value.path)
    }, brought back into revision ${value.fromRevision}; once confirmed it is ` +
    "committed as the next revision and published over your file.",
    `The Markdown: ${change(value.markdownDiff)}. The data: ${change(value.dataDiff)}.`,
    ...changed.slice(0, CHANGED_LINES),
    ...(changed.length > CHANGED_LINES
      ? [`  … and ${changed.length - CHANGED_LINES} more changed lines`]
      : []),
  ];
}
