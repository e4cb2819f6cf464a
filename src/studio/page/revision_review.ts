/**
 * What a revision Run asks the person to confirm: the edit of a published file, carried into the Artifact's
 * data. Shown as the change of the data by field (as two revisions are compared) and, beside it, the
 * Markdown as the person edited it and as it will be published, line by line.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { unifiedDiffLines } from "./diff.ts";
import { DiffLines, DiffView } from "./diff_view.ts";
import { html } from "./html.ts";

/** The confirmation context of a revision Run, as the service writes it. */
export interface RevisionContext {
  path: string;
  fromRevision: number;
  markdownDiff: string;
  before: unknown;
  data: unknown;
}

/** Whether a confirmation's context is a revision's. */
export function isRevisionContext(context: unknown): context is RevisionContext {
  const value = context as Partial<RevisionContext> | null;
  return typeof value?.path === "string" && typeof value.markdownDiff === "string" && "data" in value;
}

/** The two diffs of a revision: the data by field, and the Markdown by line. */
export function RevisionReview(props: { context: RevisionContext }): ComponentChildren {
  const { path, fromRevision, markdownDiff, before, data } = props.context;
  const lines = unifiedDiffLines(markdownDiff);
  return html`
    <div class="revision-review">
      <p>Your edit of <code>${path}</code>, brought back into revision ${fromRevision}. Once you confirm, it is
          committed as the next revision and published over your file.</p>
      <div class="columns">
        <section aria-labelledby="review-fields">
          <h4 id="review-fields">The data</h4>
          <${DiffView} before=${before} after=${data} from=${fromRevision} to="the proposed revision" />
        </section>
        <section aria-labelledby="review-markdown">
          <h4 id="review-markdown">The Markdown</h4>
          <div role="region" aria-label="Markdown diff" class="diff-region">
              <p class="muted">From your edit of ${path} to what will be published${lines.length
                ? "."
                : ": no difference."}</p>
              ${lines.length > 0 && DiffLines(lines)}
            </div>
        </section>
      </div>
    </div>
  `;
}
