/**
 * A unified diff of the project's files as a code review shows it: one collapsible section per file (its
 * path, how it changed, `+added −removed`), each hunk's lines with their numbers in the old and the new file,
 * added lines' text in `<ins>` and removed ones' in `<del>` (their rows coloured, and marked `+`/`−` so they
 * read without colour). Binary files and files too long to read are summarized, and a diff cut to its bound says so.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { type DiffFile, type DiffFileLine, diffFiles, summarized } from "../../lib/diff_files.ts";
import { visibleLine } from "../../lib/visible_text.ts";
import { html } from "./html.ts";

/** The anchor id of a file's section, so a list of files can link to it. */
export function fileAnchor(path: string): string {
  return `file-${encodeURIComponent(path).replace(/%/g, "_")}`;
}

/** The files of `diff`, each in a section that opens and closes, in a region named `label`. */
export function FileDiffs(props: { diff: string; label: string; cutBytes?: number }): ComponentChildren {
  const files = diffFiles(props.diff);
  return html`<div role="region" aria-label=${props.label} class="diff-region file-diffs">
    ${files.map((file) => html`<${FileDiff} key=${file.path} file=${file} />`)}
    ${
    (props.cutBytes ?? 0) > 0 && html`
      <p
        class="muted">The diff is cut here: ${kib(
          props.cutBytes!,
        )} more are not kept. Open the files in your editor to see the rest.</p>
    `
  }
  </div>`;
}

function kib(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${Math.ceil(bytes / 1024)} KiB`;
}

/** How a file's change is counted in words and signs. */
export function fileCounts(file: DiffFile): string {
  return file.binary ? "binary" : `+${file.added} −${file.removed}`;
}

function FileDiff(props: { file: DiffFile }): ComponentChildren {
  const { file } = props;
  const path = visibleLine(file.path);
  const short = !summarized(file);
  return html`<details class="file-diff" id=${fileAnchor(file.path)} open=${short} data-path=${file.path}>
    <summary>
      <code>${path}</code> <span class="muted">${file.status}</span>
      <span class="counts"><span class="added">+${file.added}</span> <span class="removed">−${file.removed}</span></span>
    </summary>
    ${
    file.binary
      ? html`<p class="muted">A binary file: not shown.</p>`
      : !short
      ? html`<p class="muted">${file.added + file.removed} changed lines: too long to show here.</p>`
      : file.hunks.map((hunk, i) =>
        html`<div key=${i} class="diff hunk">
          <span class="hunk-header">${visibleLine(hunk.header)}</span>
          ${hunk.lines.map((line, j) => html`<${Line} key=${j} line=${line} />`)}
        </div>`
      )
  }
  </details>`;
}

function Line(props: { line: DiffFileLine }): ComponentChildren {
  const { line } = props;
  const numbers = html`
    <span class="num" aria-label=${line.oldLine ? `old line ${line.oldLine}` : undefined}>${line.oldLine ??
      ""}</span><span class="num"
      aria-label=${line.newLine ? `new line ${line.newLine}` : undefined}>${line.newLine ?? ""}</span>
  `;
  const text = visibleLine(line.text);
  // The row is coloured; only the line's own text is in `<ins>`/`<del>`, so it reads as the text alone.
  switch (line.kind) {
    case "add":
      return html`<div class="line add">${numbers}<span class="sign" aria-hidden="true">+</span><ins>${text}</ins></div>`;
    case "del":
      return html`<div class="line del">${numbers}<span class="sign" aria-hidden="true">−</span><del>${text}</del></div>`;
    case "note":
      return html`<div class="line note">${numbers}<span class="sign"></span><span>\\ ${text}</span></div>`;
    default:
      return html`<div class="line same">${numbers}<span class="sign"></span><span>${text}</span></div>`;
  }
}
