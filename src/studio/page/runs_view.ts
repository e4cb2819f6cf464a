/**
 * The Runs: filtered by status and workflow and searched by intent, with every filter in the address, in
 * pages of 50 newest first. Pages follow `list_runs` cursors, remembered per filter so Newer and Older are one
 * request each; the intent search reads whole pages of 200 and keeps the matches, so thousands of Runs cost a
 * few requests. The list follows `weft://runs`, which changes with any Run.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { useEffect, useState } from "./preact.ts";
import { FIRST_VIEW_CALLS, RUNS_PAGE_SIZE } from "../first_view.ts";
import { waitsFor } from "../first_view_html.ts";
import { firstAnswer } from "./first_answers.ts";
import { connection } from "./connection.ts";
import { useLoad } from "./hooks.ts";
import { html } from "./html.ts";
import { formatRoute, navigate, type Route } from "./route.ts";
import { RUN_STATUSES, type RunView, type WorkflowView } from "./types.ts";

/** Runs per page (the opened page's first answers are one such page). */
export const PAGE_SIZE = RUNS_PAGE_SIZE;
/** Runs read per request while searching. */
const SCAN_SIZE = 200;

type RunsRoute = Extract<Route, { view: "runs" }>;

/** Where a page starts: a cursor of `list_runs` and how many of that batch come before it. */
interface Position {
  cursor?: string;
  skip: number;
}

/** Where each page starts, per filter: pages[0] is the first page. */
const starts = new Map<string, Position[]>();

function filterKey(route: RunsRoute): string {
  return JSON.stringify([route.status, route.workflow, route.q.trim().toLowerCase()]);
}

/** One page of Runs from `start`, and where the next begins (undefined on the last page). */
async function fetchPage(route: RunsRoute, start: Position): Promise<{ runs: RunView[]; next?: Position }> {
  const filters: Record<string, unknown> = {};
  if (route.status) filters.status = route.status;
  if (route.workflow) filters.flowName = route.workflow;
  const query = route.q.trim().toLowerCase();
  if (!query) {
    const page = await connection.call<{ runs: RunView[]; nextCursor?: string }>("list_runs", {
      ...filters,
      limit: PAGE_SIZE,
      ...(start.cursor ? { cursor: start.cursor } : {}),
    });
    return { runs: page.runs, next: page.nextCursor ? { cursor: page.nextCursor, skip: 0 } : undefined };
  }
  const runs: RunView[] = [];
  let position = start;
  for (;;) {
    const batch = await connection.call<{ runs: RunView[]; nextCursor?: string }>("list_runs", {
      ...filters,
      limit: SCAN_SIZE,
      ...(position.cursor ? { cursor: position.cursor } : {}),
    });
    for (let index = position.skip; index < batch.runs.length; index++) {
      const { intent, title } = batch.runs[index];
      if (!`${title ?? ""}\n${intent}`.toLowerCase().includes(query)) continue;
      runs.push(batch.runs[index]);
      if (runs.length === PAGE_SIZE) {
        const more = index + 1 < batch.runs.length || batch.nextCursor !== undefined;
        return { runs, next: more ? { cursor: position.cursor, skip: index + 1 } : undefined };
      }
    }
    if (!batch.nextCursor) return { runs };
    position = { cursor: batch.nextCursor, skip: 0 };
  }
}

/** Page `route.page`, walking from the last page whose start is known (a bookmarked page 7, say). */
async function loadPage(route: RunsRoute): Promise<{ runs: RunView[]; older: boolean }> {
  const key = filterKey(route);
  const known = starts.get(key) ?? [{ skip: 0 }];
  starts.set(key, known);
  let index = Math.min(route.page, known.length) - 1;
  for (;;) {
    const page = await fetchPage(route, known[index]);
    if (page.next) known[index + 1] = page.next;
    else known.length = index + 1;
    if (index === route.page - 1 || !page.next) return { runs: page.runs, older: page.next !== undefined };
    index++;
  }
}

/** The home view's first page as the opened page carried it (once), remembering where the next begins. */
function earlyPage(route: RunsRoute): { runs: RunView[]; older: boolean } | undefined {
  const [first] = FIRST_VIEW_CALLS;
  const { status, limit } = first.arguments;
  if (route.status !== status || route.workflow || route.q.trim() || route.page !== 1) return undefined;
  const answer = firstAnswer(first.name, { status, limit });
  if (!answer) return undefined;
  const page = answer.result as { runs: RunView[]; nextCursor?: string };
  starts.set(
    filterKey(route),
    page.nextCursor ? [{ skip: 0 }, { cursor: page.nextCursor, skip: 0 }] : [{ skip: 0 }],
  );
  return { runs: page.runs, older: page.nextCursor !== undefined };
}

/** The Runs view. */
export function RunsPage(props: { route: RunsRoute }): ComponentChildren {
  const { route } = props;
  const loaded = useLoad(formatRoute(route), () => loadPage(route), ["weft://runs"], () => earlyPage(route));
  const workflows = useLoad(
    "workflows",
    () => connection.call<{ workflows: WorkflowView[] }>("list_workflows"),
    [],
  );
  const go = (change: Partial<RunsRoute>, replace = false) =>
    navigate({ ...route, page: 1, ...change }, replace);
  const names = new Set((workflows.data?.workflows ?? []).map((workflow) => workflow.name));
  if (route.workflow) names.add(route.workflow);

  return html`<section>
    <h2>Runs</h2>
    <div class="filters">
      <label>Status
        <select value=${route.status} onChange=${(event: Event) =>
    go({ status: (event.currentTarget as HTMLSelectElement).value })}>
          <option value="">All</option>
          ${RUN_STATUSES.map((status) => html`<option key=${status} value=${status}>${status}</option>`)}
        </select>
      </label>
      <label>Workflow
        <select value=${route.workflow} onChange=${(event: Event) =>
    go({ workflow: (event.currentTarget as HTMLSelectElement).value })}>
          <option value="">All</option>
          ${[...names].sort().map((name) => html`<option key=${name} value=${name}>${name}</option>`)}
        </select>
      </label>
      <${SearchBox} value=${route.q} onSearch=${(q: string) => go({ q }, true)} />
    </div>
    ${loaded.error && html`<p role="alert" class="problem">${loaded.error.message}</p>`}
    <table aria-label="Runs" aria-busy=${loaded.loading ? "true" : "false"}>
      <thead><tr><th scope="col">Intent</th><th scope="col">Workflow</th><th scope="col">Status</th><th scope="col">Where</th><th scope="col">Updated</th></tr></thead>
      <tbody>
        ${(loaded.data?.runs ?? []).map((run) => html`<${RunRow} key=${run.runId} run=${run} />`)}
      </tbody>
    </table>
    ${
    loaded.data && loaded.data.runs.length === 0 &&
    html`<p class="muted">${
      route.status === "waiting" && !route.workflow && !route.q
        ? "Nothing is waiting for you."
        : "No Runs match."
    }</p>`
  }
    <nav class="paging" aria-label="Pages">
      <button type="button" disabled=${route.page <= 1} onClick=${() =>
    go({ page: route.page - 1 })}>Newer</button>
      <span>Page ${route.page}</span>
      <button type="button" disabled=${!loaded.data?.older} onClick=${() =>
    go({ page: route.page + 1 })}>Older</button>
    </nav>
  </section>`;
}

function RunRow(props: { run: RunView }): ComponentChildren {
  const { run } = props;
  return html`
    <tr>
      <td class="intent-cell"><a href=${formatRoute({ view: "run", runId: run.runId })}>${run.title ??
        run.intent}</a></td>
      <td>${run.flowName}</td>
      <td><span class=${`badge ${run.status}`}>${run.status}</span>${waitsFor(run)}</td>
      <td>${run.cursor.stageName}/${run.cursor.stepName}</td>
      <td><time datetime=${run.updatedAt}>${new Date(run.updatedAt).toLocaleString()}</time></td>
    </tr>
  `;
}

/** The search box: the address follows the typing after a short pause, as one history entry. */
function SearchBox(props: { value: string; onSearch: (q: string) => void }): ComponentChildren {
  const [text, setText] = useState(props.value);
  useEffect(() => setText(props.value), [props.value]);
  useEffect(() => {
    if (text === props.value) return;
    const timer = setTimeout(() => props.onSearch(text), 250);
    return () => clearTimeout(timer);
  }, [text]);
  return html`<label>Search intents
    <input type="search" value=${text} onInput=${(event: Event) =>
    setText((event.currentTarget as HTMLInputElement).value)} />
  </label>`;
}
