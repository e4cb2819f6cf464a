/**
 * The diff between two revisions, as a region named "Diff": removed text in `<del>`, added text in `<ins>`,
 * JSON changes under their paths. The words "removed" and "added" are part of the text, so the change reads the
 * same without colour or styling.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { type DiffLine, diffRevisions, type JsonChange } from "./diff.ts";
import { html } from "./html.ts";

/** The diff of `before` (revision `from`) and `after` (revision `to`, or what `to` names). */
export function DiffView(
  props: { before: unknown; after: unknown; from: number; to: number | string },
): ComponentChildren {
  const diff = diffRevisions(props.before, props.after);
  const empty = diff.kind === "text"
    ? diff.lines.every((line) => line.kind === "same")
    : diff.changes.length === 0;
  return html`<div role="region" aria-label="Diff" class="diff-region">
    <p class="muted">From revision ${props.from} to ${
    typeof props.to === "number" ? `revision ${props.to}` : props.to
  }${empty ? ": no difference." : diff.kind === "json" ? `: ${diff.changes.length} change(s).` : "."}</p>
    ${
    diff.kind === "text"
      ? DiffLines(diff.lines)
      : !empty && html`<ul class="changes">${
        diff.changes.map((change, i) => html`<li key=${i}>${jsonChange(change)}</li>`)
      }</ul>`
  }
  </div>`;
}

/** Lines of a diff: removed ones in `<del>`, added ones in `<ins>`. */
export function DiffLines(diffLines: DiffLine[]): ComponentChildren {
  return html`<div class="diff">
    ${
    diffLines.map((line, i) =>
      line.kind === "add"
        ? html`<ins key=${i}><span class="sign" aria-hidden="true">+ </span>${line.text}</ins>`
        : line.kind === "del"
        ? html`<del key=${i}><span class="sign" aria-hidden="true">− </span>${line.text}</del>`
        : html`<span key=${i} class="same"><span class="sign" aria-hidden="true">  </span>${line.text}</span>`
    )
  }
  </div>`;
}

function pretty(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

function jsonChange(change: JsonChange): ComponentChildren {
  const path = html`<code class="path">${change.path || "(the whole value)"}</code>`;
  switch (change.kind) {
    case "added":
      return html`
        ${path} added <div class="diff">
          <ins>${pretty(change.after)}</ins>
        </div>
      `;
    case "removed":
      return html`
        ${path} removed <div class="diff">
          <del>${pretty(change.before)}</del>
        </div>
      `;
    case "changed":
      return change.lines ? html`${path} changed ${DiffLines(change.lines)}` : html`
        ${path} changed <div class="diff">
          <del>${pretty(change.before)}</del>
          <ins>${pretty(change.after)}</ins>
        </div>
      `;
  }
}
