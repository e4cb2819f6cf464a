/**
 * A Run's tasks (the items of its list stage) as people read them in the terminal: one row per task with
 * its status, attempts and last verify, under a line that counts them.
 *
 * @module
 */

import type { ListItemStatus, ListItemView, ListView } from "../../client/views.ts";
import { failureLine } from "../../lib/output_excerpt.ts";
import { LIST_ITEM_STATUSES } from "../../client/views.ts";
import { answeredWhere } from "../../client/answer_channel.ts";
import { visibleLine } from "../../lib/visible_text.ts";
import {
  outputWidth,
  paint,
  type Stream,
  table,
  tableLayout,
  type Tone,
  truncate,
} from "../terminal/format.ts";

const TONES: Record<ListItemStatus, Tone> = {
  pending: "dim",
  running: "cyan",
  done: "green",
  failed: "red",
  skipped: "dim",
  blocked: "magenta",
};

/** A title is cut to this; the id beside it never is (a person pastes it). */
const TITLE_CHARS = 40;
/** The narrowest the last column gets: a narrower terminal wraps lines rather than hide the verify. */
const MIN_VERIFY = 24;

/** The line that counts the tasks by status, only the statuses some task has, in display order. */
export function countsLine(list: ListView): string {
  const parts = LIST_ITEM_STATUSES.filter((status) => list.counts[status] > 0)
    .map((status) => `${list.counts[status]} ${status}`);
  const total = list.items.length;
  return `${total} ${total === 1 ? "task" : "tasks"}: ${parts.join(", ") || "none"}` +
    (list.stopped ? " (the list was stopped)" : "");
}

/** The table of `list`'s tasks; its last column takes what the terminal leaves it. */
export function taskTable(list: ListView, stream: Stream = Deno.stdout): string {
  const header = ["TASK", "TITLE", "STATUS", "ATTEMPTS", "LAST VERIFY"];
  const rows = list.items.map((item) => [
    item.id,
    truncate(item.title, TITLE_CHARS),
    paint(TONES[item.status], item.status, stream) + decided(item),
    String(item.attempts),
  ]);
  const { lastColumn } = tableLayout(header, rows.map((row) => [...row, ""]), stream);
  const width = Math.max(MIN_VERIFY, outputWidth(stream) - lastColumn);
  return table(header, rows.map((row, i) => [...row, lastVerify(list.items[i], width, stream)]), stream);
}

/** How the answer that ended a task came, after its status: " · in Studio". */
function decided(item: ListItemView): string {
  return item.decidedBy ? ` · ${visibleLine(answeredWhere(item.decidedBy))}` : "";
}

/**
 * `passed · exit 0 · <its last line>` (a failure: the line that says what failed, when a runner wrote one), cut
 * to `width`; for a task with no verify, why it did not run
 * (blocked, skipped), else a dash.
 */
export function lastVerify(item: ListItemView, width: number, stream: Stream = Deno.stdout): string {
  const verify = item.verify;
  if (!verify) return item.reason ? paint("dim", truncate(item.reason, width), stream) : "–";
  const exit = verify.exitCode === null
    ? verify.outcome === "timed_out" ? "timed out" : "signal"
    : `exit ${verify.exitCode}`;
  const head = `${verify.passed ? "passed" : "failed"} · ${exit}`;
  const line = (!verify.passed && failureLine(verify.summary)) ||
    verify.summary.split("\n").map((text) => text.trim()).filter(Boolean).at(-1);
  const text = truncate(line ? `${head} · ${line}` : head, width);
  return paint(verify.passed ? "green" : "red", text.slice(0, head.length), stream) + text.slice(head.length);
}
