/**
 * The readable rendering of `readable.ts` written as a Markdown document, for a file people read in their
 * repository: the top-level fields become sections, lists become lists, a list of flat records a table, and
 * the strings the schema marks as Markdown (their JSON pointers in `markdown`) are kept as written. Other
 * text is escaped, so a plain string never turns into formatting by accident.
 *
 * @module
 */

import { asAnswerRecord, label } from "./readable.ts";

/** `value` as a Markdown document whose sections are its top-level fields; `markdown` as for `readable`. */
export function readableMarkdown(value: unknown, markdown: readonly string[] = []): string {
  const place: Place = { at: "", markdown: new Set(markdown) };
  if (isScalar(value) || Array.isArray(value) || asAnswerRecord(value)) {
    return block(value, place).join("\n") + "\n";
  }
  const sections = Object.entries(value as Record<string, unknown>).map(([key, item]) =>
    [`## ${escapeText(label(key))}`, "", ...block(item, child(place, key))].join("\n")
  );
  return sections.join("\n\n") + "\n";
}

interface Place {
  at: string;
  markdown: ReadonlySet<string>;
}

function child(place: Place, key: string | number): Place {
  return { ...place, at: `${place.at}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}` };
}

/** One value as Markdown blocks (lines). */
function block(value: unknown, place: Place): string[] {
  if (isScalar(value)) return text(value, place).split("\n");
  if (Array.isArray(value)) {
    if (value.length === 0) return ["*(none)*"];
    const table = asTable(value, place);
    if (table) return table;
    return value.flatMap((item, index) => listItem(item, child(place, index)));
  }
  const record = asAnswerRecord(value);
  if (record) {
    const answer = record.skipped ? ["*(skipped)*"] : block(record.answer, child(place, "answer"));
    return fields([[label(record.questionId), answer]]);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return ["*(none)*"];
  return fields(entries.map(([key, item]) => [label(key), block(item, child(place, key))]));
}

/** Labelled parts as a list: a one-line part on the label's line, a longer one indented below it. */
function fields(parts: [string, string[]][]): string[] {
  return parts.flatMap(([name, lines]) =>
    lines.length === 1 && !/^([-*+]|\d+\.|#|>|\|)\s/.test(lines[0])
      ? [`- **${escapeText(name)}:** ${lines[0]}`]
      : [`- **${escapeText(name)}:**`, "", ...indented(lines), ""]
  );
}

function listItem(item: unknown, place: Place): string[] {
  const lines = block(item, place);
  if (!isScalar(item) && !Array.isArray(item)) return [...indentedItem(lines), ""];
  return indentedItem(lines);
}

/** Lines as one list item: the first behind `- `, the rest indented to its content. */
function indentedItem([first = "", ...rest]: string[]): string[] {
  return [`- ${first}`, ...indented(rest)];
}

function indented(lines: string[]): string[] {
  return lines.map((line) => line ? `  ${line}` : "");
}

/** A list of records with the same keys and one-line values, as a table; null otherwise. */
function asTable(items: unknown[], place: Place): string[] | null {
  if (items.length < 2 || items.some((item) => isScalar(item) || Array.isArray(item))) return null;
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
    rows.push(cells.map((cell) => cell.replaceAll("|", "\\|")));
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

/** Plain text that Markdown shows as it is: its formatting characters behind a backslash. */
export function escapeText(text: string): string {
  return text.replace(/([\\`*_[\]<>#|~])/g, "\\$1").replace(/^(\s*)([-+])(\s)/gm, "$1\\$2$3")
    .replace(/^(\s*)(\d+)\.(\s)/gm, "$1$2\\.$3");
}

function isScalar(value: unknown): value is string | number | boolean | null | undefined {
  return value === null || typeof value !== "object";
}
