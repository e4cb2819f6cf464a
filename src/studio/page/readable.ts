/**
 * JSON shown for reading, not parsing: objects as titled fields (their keys as words), lists as lists, text as
 * text with its line breaks, and the nested parts of the top level under headings. Used wherever a person
 * decides on data: confirmations, answers in the timeline, Record answers, Artifacts. The strings the
 * value's schema marks as Markdown (their JSON pointers in `markdown`) are rendered as Markdown.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { html } from "./html.ts";
import { Markdown } from "./markdown_view.ts";
import { label } from "../../lib/field_label.ts";

/** Where a part of the value is (its JSON pointer), and which pointers hold Markdown. */
interface Place {
  at: string;
  markdown: ReadonlySet<string>;
}

function child(place: Place, key: string | number): Place {
  return { ...place, at: `${place.at}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}` };
}

function isScalar(value: unknown): value is string | number | boolean | null | undefined {
  return value === null || typeof value !== "object";
}

function scalar(value: string | number | boolean | null | undefined, place: Place): ComponentChildren {
  if (value === null || value === undefined) return html`<span class="muted">—</span>`;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string" && place.markdown.has(place.at)) return html`<${Markdown} source=${value} />`;
  if (typeof value === "string" && value.includes("\n")) return html`<span class="text">${value}</span>`;
  return String(value);
}

/**
 * `value` rendered readably; `level` is the heading level of its nested parts (3 by default), `markdown`
 * the JSON pointers of its strings that hold Markdown.
 */
export function Readable(
  props: { value: unknown; level?: number; markdown?: readonly string[] },
): ComponentChildren {
  return readable(props.value, Math.min(props.level ?? 3, 6), {
    at: "",
    markdown: new Set(props.markdown ?? []),
  });
}

function readable(value: unknown, level: number, place: Place): ComponentChildren {
  if (isScalar(value)) {
    return place.markdown.has(place.at) && typeof value === "string"
      ? scalar(value, place)
      : html`<p class="readable">${scalar(value, place)}</p>`;
  }
  if (Array.isArray(value)) return list(value, level, place);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return html`<p class="muted">(nothing)</p>`;
  const simple = entries.filter(([, item]) => isScalar(item));
  const nested = entries.filter(([, item]) => !isScalar(item));
  const Heading = `h${level}`;
  return html`<div class="readable">
    ${simple.length > 0 && fields(simple, place)}
    ${
    nested.map(([key, item]) =>
      html`
        <section key=${key}>
          <${Heading}>${label(key)}<//>
                ${readable(item, Math.min(level + 1, 6), child(place, key))}
              </section>
      `
    )
  }
  </div>`;
}

/** Entries as titled fields; `level` is the heading level of anything nested in them. */
function fields(entries: [string, unknown][], place: Place, level = 4): ComponentChildren {
  return html`<dl class="fields">
    ${
    entries.map(([key, item]) =>
      html`
        <div key=${key}>
          <dt>${label(key)}</dt>
          <dd>${inline(item, child(place, key), level)}</dd>
        </div>
      `
    )
  }
  </dl>`;
}

function list(items: unknown[], level: number, place: Place): ComponentChildren {
  if (items.length === 0) return html`<p class="muted">(none)</p>`;
  return html`<ul class="readable">
    ${items.map((item, index) => html`<li key=${index}>${inline(item, child(place, index), level)}</li>`)}
  </ul>`;
}

/**
 * An answer to one question as weft records it (`{ questionId, isSkipped, answer?, label? }`), which reads
 * best as "Question: answer" rather than as labelled fields; a chosen option reads as its label.
 */
function answerRecord(value: unknown, place: Place): ComponentChildren | null {
  if (isScalar(value) || Array.isArray(value)) return null;
  const { questionId, isSkipped, answer, label: optionLabel, ...rest } = value as Record<string, unknown>;
  if (typeof questionId !== "string" || typeof isSkipped !== "boolean" || Object.keys(rest).length) {
    return null;
  }
  if (optionLabel !== undefined && typeof optionLabel !== "string") return null;
  const shown = optionLabel === undefined
    ? inline(answer, child(place, "answer"))
    : inline(optionLabel, child(place, "label"));
  return html`<span class="answer"><span class="answer-question">${label(questionId)}</span>: ${
    isSkipped ? html`<span class="muted">(skipped)</span>` : shown
  }</span>`;
}

/** A value inside a field or a list item: scalars inline, structures nested. */
function inline(value: unknown, place: Place, level = 4): ComponentChildren {
  if (isScalar(value)) return scalar(value, place);
  const record = answerRecord(value, place);
  if (record) return record;
  if (Array.isArray(value)) return list(value, level, place);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return html`<span class="muted">(nothing)</span>`;
  return fields(entries, place, level);
}
