/**
 * Renders a JSON value as plain text a person can read in a form message: labelled lines for objects,
 * bullets for lists, text as it is. Form messages are plain strings, so JSON punctuation would only get in
 * the way of deciding. The strings the value's schema marks as Markdown (their JSON pointers in `markdown`)
 * are rendered as plain text too: no emphasis marks, bullets as "•", links as "text (url)".
 *
 * @module
 */

import { markdownToText } from "./markdown_text.ts";
import { label } from "./field_label.ts";

/** The longest rendering, in characters; past it the text ends with a pointer to the full Run. */
export const MAX_READABLE_CHARS = 6_000;

/**
 * The value as indented, labelled plain text, cut at {@linkcode MAX_READABLE_CHARS}; `whole` says where the
 * uncut value can be read, `markdown` which of its strings (JSON pointers) hold Markdown.
 */
export function readable(
  value: unknown,
  whole = "get_run shows the whole context",
  markdown: readonly string[] = [],
): string {
  const text = render(value, "", { at: "", markdown: new Set(markdown) }).join("\n").trim() || "(nothing)";
  if (text.length <= MAX_READABLE_CHARS) return text;
  return `${text.slice(0, MAX_READABLE_CHARS)}\n… (cut here; ${whole})`;
}

/**
 * An answer to one question as weft records it (`{ questionId, isSkipped, answer?, label? }`), which reads
 * best as "Question: answer" rather than as labelled fields; a chosen option reads as its label.
 */
export function asAnswerRecord(
  value: unknown,
): { questionId: string; answer?: unknown; skipped: boolean } | null {
  if (isScalar(value) || Array.isArray(value)) return null;
  const { questionId, isSkipped, answer, label: optionLabel, ...rest } = value as Record<string, unknown>;
  if (typeof questionId !== "string" || typeof isSkipped !== "boolean" || Object.keys(rest).length) {
    return null;
  }
  if (optionLabel !== undefined && typeof optionLabel !== "string") return null;
  return { questionId, answer: optionLabel ?? answer, skipped: isSkipped };
}

/** Where a part of the value is (its JSON pointer), and which pointers hold Markdown. */
export interface Place {
  at: string;
  markdown: ReadonlySet<string>;
}

/** The place of `key` within `place`. */
export function child(place: Place, key: string | number): Place {
  return { ...place, at: `${place.at}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}` };
}

function render(value: unknown, indent: string, place: Place): string[] {
  if (isScalar(value)) return text(value, place).split("\n").map((line) => line ? indent + line : "");
  const record = asAnswerRecord(value);
  if (record) {
    const answerPlace = child(place, "answer");
    const answer = record.skipped
      ? "(skipped)"
      : isScalar(record.answer)
      ? text(record.answer, answerPlace)
      : undefined;
    if (answer !== undefined && !answer.includes("\n")) {
      return [`${indent}${label(record.questionId)}: ${answer}`];
    }
    return [`${indent}${label(record.questionId)}:`, ...render(record.answer, indent + "  ", answerPlace)];
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${indent}(none)`];
    return value.flatMap((item, index) => bullet(item, indent, child(place, index)));
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return [`${indent}(none)`];
  return entries.flatMap(([key, item]) => {
    const itemPlace = child(place, key);
    return isScalar(item) && !text(item, itemPlace).includes("\n")
      ? [`${indent}${label(key)}: ${text(item, itemPlace)}`]
      : [`${indent}${label(key)}:`, ...render(item, indent + "  ", itemPlace)];
  });
}

function bullet(item: unknown, indent: string, place: Place): string[] {
  const [first, ...rest] = render(item, indent + "  ", place);
  return [`${indent}- ${first.trimStart()}`, ...rest];
}

/** A scalar as text, Markdown where the schema says so. */
function text(value: string | number | boolean | null | undefined, place: Place): string {
  return typeof value === "string" && place.markdown.has(place.at) ? markdownToText(value) : scalar(value);
}

/** Whether `value` is shown as one piece of text (not a list or an object). */
export function isScalar(value: unknown): value is string | number | boolean | null | undefined {
  return value === null || typeof value !== "object";
}

function scalar(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}
