/**
 * The home view's first paint as HTML: the page's frame (header, navigation) and the Runs waiting for the
 * person, built by the service from the first view's `list_runs` answer and sent inside the page a ticket
 * opens, so the list shows when the document arrives instead of after the 385 KB script has run. It mirrors
 * the markup of the script's first render (`page/app.ts`, `page/runs_view.ts`: same elements, roles, labels
 * and classes), which replaces it in place. Shared by the service and the page (who waits for whom, the
 * waiting count), so it imports only what the page shares too and uses no runtime API.
 *
 * @module
 */

import { visibleText } from "../lib/visible_text.ts";

/** What a row reads of a Run (a structural part of the wire's `RunView`). */
export interface RunRowFields {
  runId: string;
  intent: string;
  flowName: string;
  status: string;
  updatedAt: string;
  cursor: { stageName: string; stepName: string };
  execution: { agentExecutor: string };
  pendingAction?: unknown;
  pendingCommand?: { phase: string };
  pendingAgentCall?: unknown;
}

/** A page of `list_runs`. */
export interface RunsPageFields {
  runs: readonly RunRowFields[];
  nextCursor?: string;
}

/** Every status, in the order the filter lists them. */
export const RUN_STATUS_NAMES = ["waiting", "running", "completed", "failed", "cancelled"] as const;

/** The page's first view, as its address's hash names it. */
export const HOME_HASH = "#/runs?status=waiting";

/** The hash of one Run's view. */
export function runHash(runId: string): string {
  return `#/runs/${encodeURIComponent(runId)}`;
}

/** Who a waiting Run waits for: the person (an answer) or an agent (its work); "" when no one. */
export function waitsFor(run: RunRowFields): string {
  if (run.pendingAction || run.pendingCommand?.phase === "untrusted") return " for you";
  if (run.pendingCommand) return " for its command";
  if (run.pendingAgentCall) {
    return run.execution.agentExecutor === "service" ? " for the model" : " for the agent";
  }
  return "";
}

/**
 * The header's "Waiting for you" count over a page of waiting Runs: those waiting for a person's answer or
 * confirmation; "N+" when more waiting Runs are past the page.
 */
export function waitingForYou(page: RunsPageFields): string {
  const forYou = page.runs.filter((run) => run.pendingAction).length;
  return page.nextCursor ? `${forYou}+` : String(forYou);
}

/**
 * `text` safe as HTML text or as a quoted attribute value, its control and hiding characters written out as
 * escapes (`visibleText`), as the page shows every string.
 */
export function escapeHtml(text: string): string {
  return visibleText(text).replace(/[&<>"']/g, (char) => ENTITIES[char]);
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * The inside of the page's root element as the script's first render of the home view draws it from `page`
 * (the first view's answer), without whitespace between elements, as that render has none. The update
 * times are written in UTC, since the service does not know the browser's locale; the script's render writes
 * them in the person's.
 */
export function firstViewHtml(page: RunsPageFields): string {
  const statusOptions = RUN_STATUS_NAMES.map((status) =>
    `<option value="${status}"${status === "waiting" ? " selected" : ""}>${status}</option>`
  ).join("");
  const empty = page.runs.length === 0 ? '<p class="muted">Nothing is waiting for you.</p>' : "";
  return `<header class="top"><h1>weft Studio</h1>` +
    `<span role="status" class="link reconnecting">Reconnecting…</span>` +
    `<a class="waiting-link" href="${HOME_HASH}">Waiting for you (${waitingForYou(page)})</a>` +
    `<nav aria-label="Studio"><a href="#/runs" aria-current="page">Runs</a><a href="#/start">Start a Run</a>` +
    `<a href="#/artifacts">Artifacts</a></nav>` +
    `<button type="button" class="sign-out">Sign out everywhere</button></header>` +
    `<main id="view" tabindex="-1"><section><h2>Runs</h2><div class="filters">` +
    `<label>Status<select><option value="">All</option>${statusOptions}</select></label>` +
    `<label>Workflow<select><option value="">All</option></select></label>` +
    `<label>Search intents<input type="search"></label></div>` +
    `<table aria-label="Runs" aria-busy="false"><thead><tr><th scope="col">Intent</th>` +
    `<th scope="col">Workflow</th><th scope="col">Status</th><th scope="col">Where</th>` +
    `<th scope="col">Updated</th></tr></thead><tbody>${page.runs.map(runRow).join("")}</tbody></table>` +
    empty +
    `<nav class="paging" aria-label="Pages"><button type="button" disabled>Newer</button><span>Page 1</span>` +
    `<button type="button"${page.nextCursor ? "" : " disabled"}>Older</button></nav></section></main>`;
}

function runRow(run: RunRowFields): string {
  const status = escapeHtml(run.status);
  const link = `<a href="${escapeHtml(runHash(run.runId))}">${escapeHtml(run.intent)}</a>`;
  const time = `<time datetime="${escapeHtml(run.updatedAt)}">${escapeHtml(utcTime(run.updatedAt))}</time>`;
  return `<tr><td class="intent-cell">${link}</td><td>${escapeHtml(run.flowName)}</td>` +
    `<td><span class="badge ${status}">${status}</span>${escapeHtml(waitsFor(run))}</td>` +
    `<td>${escapeHtml(run.cursor.stageName)}/${escapeHtml(run.cursor.stepName)}</td><td>${time}</td></tr>`;
}

/** `2026-12-02T06:45:37.123Z` as `2026-12-02 06:45:37 UTC`; anything else as it is. */
function utcTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(\.\d+)?Z$/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}
