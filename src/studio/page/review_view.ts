/**
 * What an action asks a person to judge, above its form: the task (id, title, description, the requirements
 * it serves and their acceptance criteria), what the agent says it did, how the verify command went with the
 * useful part of its output, the files changed (each linking to its diff) and the diff file by file.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import type { ActionReview, ChangesEvidence, ReviewItem, VerifyEvidence } from "../../client/views.ts";
import { diffFiles, isChangesResult } from "../../lib/diff_files.ts";
import { visibleLine, visibleText } from "../../lib/visible_text.ts";
import { argvText } from "../../lib/argv_text.ts";
import { fileAnchor, fileCounts, FileDiffs } from "./file_diffs.ts";
import { html } from "./html.ts";
import { Markdown } from "./markdown_view.ts";

/**
 * Whether `request` names a task, carries evidence, or confirms what a `changes` step wrote (shown as a
 * review of those changes, not as its fields).
 */
export function hasReview(request: unknown): request is ActionReview & { context?: unknown } {
  const value = request as ActionReview & { context?: unknown } | undefined;
  return Boolean(value?.item || value?.evidence || isChangesResult(value?.context));
}

/** The review of an action's request. */
export function Review(props: { request: ActionReview & { context?: unknown } }): ComponentChildren {
  const { item, evidence, context } = props.request;
  const changes = evidence?.changes ?? (isChangesResult(context) ? context : undefined);
  return html`<div class="review">
    ${item && html`<${Task} item=${item} />`}
    ${
    evidence?.summary && html`
      <section aria-labelledby="review-summary">
        <h4 id="review-summary">What the agent says it did</h4>
        <p class="text">${visibleText(evidence.summary.trim())}</p>
      </section>
    `
  }
    ${evidence?.verify && html`<${Verify} verify=${evidence.verify} />`}
    ${changes && html`<${Changes} changes=${changes} />`}
  </div>`;
}

function Task(props: { item: ReviewItem }): ComponentChildren {
  const { item } = props;
  return html`<section aria-labelledby="review-task" class="review-task">
    <h4 id="review-task">Task <code>${visibleLine(item.id)}</code> ${visibleLine(item.title)}${
    item.attempt > 1 && html`
      <span class="muted">(attempt ${item.attempt})</span>
    `
  }</h4>
    ${
    item.description && html`
      <div class="markdown">
        <${Markdown} source=${item.description} level=${5} />
      </div>
    `
  }
    ${
    (item.requirements ?? []).length > 0 && html`
      <ul class="requirements" aria-label="What it serves">
        ${item.requirements!.map((requirement) =>
          html`<li key=${requirement.id}>
            <strong>${visibleLine(requirement.id)}</strong> ${visibleLine(requirement.statement)}
            <ul class="criteria" aria-label=${`Acceptance criteria of ${requirement.id}`}>
              ${
            requirement.acceptance.map((criterion, i) => html`<li key=${i}>${visibleLine(criterion)}</li>`)
          }
            </ul>
          </li>`
        )}
      </ul>
    `
  }
  </section>`;
}

const OUTCOME = { passed: "passed", failed: "failed", timed_out: "timed out" } as const;

function Verify(props: { verify: VerifyEvidence }): ComponentChildren {
  const { verify } = props;
  const passed = verify.outcome === "passed";
  const ms = verify.durationMs < 1000
    ? `${Math.round(verify.durationMs)} ms`
    : `${(verify.durationMs / 1000).toFixed(1)} s`;
  return html`<section aria-labelledby="review-verify" class="verify">
    <h4 id="review-verify">Verify</h4>
    <p><strong class=${passed ? "good" : "bad"}>${OUTCOME[verify.outcome]}</strong>${
    verify.exitCode === null ? "" : ` (exit ${verify.exitCode})`
  } in ${ms}${verify.run ? " · " : ""}<code>${verify.run ? argvText(verify.run) : ""}</code></p>
    ${
    !passed && verify.excerpt &&
    html`<pre class="excerpt" aria-label="What failed">${visibleText(verify.excerpt)}</pre>`
  }
  </section>`;
}

function Changes(props: { changes: ChangesEvidence }): ComponentChildren {
  const { changes } = props;
  const parsed = new Map(diffFiles(changes.diff).map((file) => [file.path, file]));
  return html`<section aria-labelledby="review-files">
    <h4 id="review-files">Files changed (${changes.files.length})</h4>
    ${
    changes.files.length === 0
      ? html`<p class="muted">It changed no file.</p>`
      : html`<ul class="files">${
        changes.files.map((file) => {
          const diff = parsed.get(file.path);
          const path = html`<code>${visibleLine(file.path)}</code>`;
          return html`<li key=${file.path}>${
            diff ? html`<a href=${`#${fileAnchor(file.path)}`} onClick=${jump(file.path)}>${path}</a>` : path
          } ${file.status}${
            diff && html`
              <span class="counts">${fileCounts(diff)}</span>
            `
          }</li>`;
        })
      }</ul>`
  }
    ${
    changes.diff
      ? html`<${FileDiffs} diff=${changes.diff} label="Diff" cutBytes=${changes.cutBytes} />`
      : changes.files.length > 0 &&
        html`<p class="muted">No line diff: the project is not a git repository.</p>`
  }
  </section>`;
}

/** Opens and scrolls to a file's diff; the address keeps its route (the page routes on the hash). */
function jump(path: string) {
  return (event: Event) => {
    event.preventDefault();
    const target = document.getElementById(fileAnchor(path)) as HTMLDetailsElement | null;
    if (!target) return;
    target.open = true;
    target.scrollIntoView({ block: "start" });
    target.querySelector("summary")?.focus();
  };
}
