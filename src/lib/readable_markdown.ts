/**
 * The readable rendering of `readable.ts` written as a Markdown document, for a file people read in their
 * repository: the top-level fields become sections, lists become lists, a list of flat records a table, and
 * the strings the schema marks as Markdown (their JSON pointers in `markdown`) are kept as written. Other
 * text is escaped, so a plain string never turns into formatting by accident.
 *
 * @module
 */

import { label } from "./field_label.ts";
import { asAnswerRecord, child, isScalar, type Place } from "./readable.ts";

/** `value` as a Markdown document whose sections are its top-level fields; `markdown` as for `readable`. */
export function readableMarkdown(value: unknown, markdown: readonly string[] = []): string {
  const place: Place = { at: "", markdown: new Set(markdown) };
  const lines = isRecord(value) && !asAnswerRecord(value)
    ? Object.entries(value).flatMap(([key, item], i) => [
      ...(i ? [""] : []),
      `## ${escapeText(label(key))}`,
      "",
      ...block(item, child(place, key), true),
    ])
    : block(value, place, false);
  // Nested parts end in a blank line of their own; one between blocks is enough.
  return lines.join("\n").replace(/\n{3,}/g, "\n\n").trim() + "\n";
}

/** One value as Markdown lines; `section` when it is a whole section, where its records get headings. */
function block(value: unknown, place: Place, section: boolean): string[] {
  if (isScalar(value)) return text(value, place).split("\n");
  if (Array.isArray(value)) {
    if (value.length === 0) return ["*(none)*"];
    const table = asTable(value, place);
    if (table) return table;
    if (section && value.every((item) => isRecord(item) && !asAnswerRecord(item))) {
      return value.flatMap((item, index) => titled(item as Record<string, unknown>, child(place, index)));
    }
    return value.flatMap((item, index) => listItem(item, child(place, index)));
  }
  const record = asAnswerRecord(value);
  if (record) {
    const answer = record.skipped ? ["*(skipped)*"] : block(record.answer, child(place, "answer"), false);
    return field(label(record.questionId), answer);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return ["*(none)*"];
  return entries.flatMap(([key, item]) => field(label(key), block(item, child(place, key), false)));
}

/** A record of a section's list under a heading: its first field's value, then its other fields. */
function titled(record: Record<string, unknown>, place: Place): string[] {
  const [[key, first] = ["", undefined], ...rest] = Object.entries(record);
  const heading = isScalar(first) && !text(first, child(place, key)).includes("\n")
    ? text(first, child(place, key))
    : undefined;
  const fields = (heading === undefined ? Object.entries(record) : rest)
    .flatMap(([name, item]) => field(label(name), block(item, child(place, name), false)));
  return [`### ${heading ?? "—"}`, "", ...fields, ""];
}

/** One labelled part as a list item: a one-line part on the label's line, a longer one indented below. */
function field(name: string, lines: string[]): string[] {
  if (lines.length === 1 && !/^([-*+]|\d+\.|#+|>|\|)\s/.test(lines[0])) {
    return [`- **${escapeText(name)}:** ${lines[0]}`];
  }
  return [`- **${escapeText(name)}:**`, "", ...indented(lines), ""];
}

/** One item of a list: its lines behind `- `, the rest indented to its content. */
function listItem(item: unknown, place: Place): string[] {
  const [first = "", ...rest] = block(item, place, false);
  return [`- ${first.replace(/^- /, "")}`, ...indented(rest)];
}

function indented(lines: string[]): string[] {
  return lines.map((line) => line ? `  ${line}` : "");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return !isScalar(value) && !Array.isArray(value);
}

/** A list of records with the same keys and one-line values, as a table; null otherwise. */
function asTable(items: unknown[], place: Place): string[] | null {
  if (items.some((item) => !isRecord(item) || asAnswerRecord(item))) return null;
  const keys = Object.keys(items[0] as Record<string, unknown>);
  if (!keys.length) return null;
  const rows: string[][] = [];
  for (const [index, item] of items.entries()) {
    const record = item as Record<string, unknown>;
    if (Object.keys(record).join("\0") !== keys.join("\0")) return null;
    const cells = keys.map((key) => {
      const value = record[key];
      return isScalar(value) ? text(value, child(child(place, index), key)) : "\n";
    });
    if (cells.some((cell) => cell.includes("\n"))) return null;
    // Plain text comes escaped already; a Markdown cell still needs its bars escaped.
    rows.push(cells.map((cell) => cell.replace(/(?<!\\)\|/g, "\\|")));
  }
  return [
    `| ${keys.map((key) => escapeText(label(key))).join(" | ")} |`,
    `| ${keys.map(() => "---").join(" | ")} |`,
    ...rows.map((cells) => `| ${cells.join(" | ")} |`),
  ];
}

/** A scalar as Markdown: kept as written where the schema says Markdown, escaped otherwise. */
function text(value: string | number | boolean | null | undefined, place: Place): string {
  if (typeof value === "string" && place.markdown.has(place.at)) return value.trim() || "—";
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return escapeText(String(value));
}

/** A code span: a run of backticks, then text, then a run of as many (CommonMark's rule, on one line). */
const CODE_SPAN = /(`+)(?!`)([^\n]*?[^`\n])\1(?!`)/g;

/**
 * Plain text that Markdown shows as it is: its formatting characters behind a backslash. A code span
 * (`` `&` ``) is kept as written: whoever wrote it meant code, and nothing inside one is formatting.
 */
export function escapeText(text: string): string {
  let escaped = "";
  let at = 0;
  for (const span of text.matchAll(CODE_SPAN)) {
    escaped += escapePlain(text.slice(at, span.index)) + span[0];
    at = span.index + span[0].length;
  }
  return escaped + escapePlain(text.slice(at));
}

function escapePlain(text: string): string {
  return text.replace(/([\\`*_[\]<>#|~])/g, "\\$1").replace(/^(\s*)([-+])(\s)/gm, "$1\\$2$3")
    .replace(/^(\s*)(\d+)\.(\s)/gm, "$1$2\\.$3");
}
