/**
 * A Run's tasks as a board: a column for each status (pending, running, done, failed or blocked, skipped),
 * each task opening to its last verify (how it ended and the output the timeline keeps) and what it changed
 * (the files and their diff, from its `changes` step). The statuses are the Run's `list`, as `weft tasks` and
 * `weft://runs/{runId}/tasks` show them; the output and the diff come from the timeline.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { StoredCommandOutput } from "./command_output.ts";
import { FileDiffs } from "./file_diffs.ts";
import { visibleLine } from "../../lib/visible_text.ts";
import { html } from "./html.ts";
import { answeredWhere } from "../../client/answer_channel.ts";
import { type TaskEvidence, taskEvidence } from "./task_evidence.ts";
import type { RunEvent, RunView } from "./types.ts";

type ListView = NonNullable<RunView["list"]>;
type Task = ListView["items"][number];

/** The board's columns, in the order work moves through them; failed and blocked share one. */
const COLUMNS: { title: string; statuses: Task["status"][] }[] = [
  { title: "Pending", statuses: ["pending"] },
  { title: "Running", statuses: ["running"] },
  { title: "Done", statuses: ["done"] },
  { title: "Failed or blocked", statuses: ["failed", "blocked"] },
  { title: "Skipped", statuses: ["skipped"] },
];

/** The board of `list`, the evidence of each task read from `timeline`. */
export function TaskBoard(props: { list: ListView; timeline: RunEvent[] }): ComponentChildren {
  const evidence = taskEvidence(props.timeline);
  return html`
    <section class="tasks" aria-labelledby="tasks-heading">
      <h3 id="tasks-heading">Tasks</h3>
      <p class="muted">${countsText(props.list)}</p>
      <div class="board">
          ${COLUMNS.map((column) => {
            const tasks = props.list.items.filter((task) => column.statuses.includes(task.status));
            return html`
              <section key=${column.title} class="column" aria-label=${column.title}>
                <h4>${column.title} <span class="muted">(${tasks.length})</span></h4>
                <ul>${tasks.map((task) =>
                  html`
                    <li key=${task.id}>
                      <${TaskCard} task=${task} evidence=${evidence.get(task.id) ?? {}} />
                    </li>
                  `
                )}</ul>
              </section>
            `;
          })}
        </div>
    </section>
  `;
}

/** How many tasks are in each column, in a sentence. */
function countsText(list: ListView): string {
  const { counts } = list;
  const total = list.items.length;
  return `${total} ${
    total === 1 ? "task" : "tasks"
  }: ${counts.done} done, ${counts.running} running, ${counts.pending} ` +
    `pending, ${counts.failed + counts.blocked} failed or blocked, ${counts.skipped} skipped` +
    (list.stopped ? " (the list was stopped)." : ".");
}

/** What the person's answer that ended a task did: "Confirmed", "Skipped", "Stopped the list". */
function decidedText(task: Task): string {
  return task.status === "done" ? "Confirmed" : task.status === "skipped" ? "Skipped" : "Stopped the list";
}

/** One task: its id, title, status and attempts; opened, its last verify and its changes. */
function TaskCard(props: { task: Task; evidence: TaskEvidence }): ComponentChildren {
  const { task, evidence } = props;
  return html`<details class="task" data-task=${task.id}>
    <summary>
      <code class="task-id">${task.id}</code> ${task.title}
      <span class=${`badge ${task.status}`}>${task.status}</span>
      <span class="muted">${task.attempts} ${task.attempts === 1 ? "attempt" : "attempts"}</span>
    </summary>
    ${task.reason && html`<p class="reason">${task.reason}</p>`}
    ${
    task.decidedBy && html`<p class="decided-by">${decidedText(task)} ${answeredWhere(task.decidedBy)}.</p>`
  }
    ${task.dependsOn.length > 0 && html`<p class="muted">Depends on ${task.dependsOn.join(", ")}.</p>`}
    ${
    task.attempts === 0 ? html`<p class="muted">Not begun.</p>` : html`
      <${LastVerify} task=${task} command=${evidence.command} />
      <${Changes} changes=${evidence.changes} />
    `
  }
  </details>`;
}

function LastVerify(props: { task: Task; command?: RunEvent }): ComponentChildren {
  const verify = props.task.verify;
  if (!verify) return html`<p class="muted">No verify has run.</p>`;
  const exit = verify.exitCode === null ? verify.outcome.replace("_", " ") : `exit ${verify.exitCode}`;
  return html`<div class="verify" role="group" aria-label="Last verify">
    <p>Last verify: <strong class=${verify.passed ? "good" : "bad"}>${
    verify.passed ? "passed" : "failed"
  }</strong> (${exit})</p>
    ${
    props.command
      ? html`
        <${StoredCommandOutput} name="stdout" value=${props.command.stdout} />
        <${StoredCommandOutput} name="stderr" value=${props.command.stderr} />
      `
      : verify.summary && html`<pre class="summary">${verify.summary}</pre>`
  }
  </div>`;
}

function Changes(props: { changes?: RunEvent }): ComponentChildren {
  const changes = props.changes;
  if (!changes) return html`<p class="muted">No changes read yet.</p>`;
  const files = Array.isArray(changes.changed) ? changes.changed as { path: string; status: string }[] : [];
  const count = typeof changes.files === "number" ? changes.files : files.length;
  if (count === 0) return html`<p class="muted">It changed no file.</p>`;
  const diff = typeof changes.diff === "string" ? changes.diff : "";
  const cut = typeof changes.diffCutBytes === "number" ? changes.diffCutBytes : 0;
  return html`<div class="changes">
    <p>Changed ${count} ${count === 1 ? "file" : "files"}${
    files.length < count ? ` (the first ${files.length} named)` : ""
  }:</p>
    <ul class="files">${
    files.map((file) => html`<li key=${file.path}><code>${visibleLine(file.path)}</code> ${file.status}</li>`)
  }</ul>
    ${diff && html`<${FileDiffs} diff=${diff} label="Diff" cutBytes=${cut} />`}
  </div>`;
}
