/**
 * The results: rows of figures against their baselines, printed as a table, a Markdown section for
 * docs/performance.md and one JSON line.
 *
 * @module
 */

import { round, type Sample } from "./measure.ts";

/** One row of the results. */
export interface Row {
  key: string;
  metric: string;
  unit: string;
  weft: number | null;
  baseline: number | null;
  baselineLabel: string;
  ratio: number | null;
  aim: string;
  /** Whether the aim is met; null when there is no aim or no figure. */
  met: boolean | null;
  note?: string;
  detail?: Record<string, unknown>;
}

/** The rows measured so far, in order. */
export const rows: Row[] = [];

/** Adds a row of weft's median against its baseline's, met when the ratio is within `aim` (if any). */
export function ratioRow(
  key: string,
  metric: string,
  weft: Sample,
  baseline: Sample,
  baselineLabel: string,
  aim: number | null,
  detail: Record<string, unknown> = {},
): void {
  const ratio = round(weft.median / baseline.median, 2);
  // Start-up and tool-latency rows carry both sides' on-CPU time too: it says what the wall times say, with
  // less noise.
  const cpu = detail.cpu as { weft: Sample; baseline: Sample; ratio: number } | undefined;
  const note = cpu
    ? `on-CPU ${fmt(cpu.weft.median)} ms vs ${fmt(cpu.baseline.median)} ms, ${cpu.ratio.toFixed(2)}×`
    : undefined;
  rows.push({
    key,
    metric,
    unit: "ms",
    weft: weft.median,
    baseline: baseline.median,
    baselineLabel,
    ratio,
    aim: aim === null ? "—" : `≤ ${aim}×`,
    met: aim === null ? null : ratio <= aim,
    ...(note ? { note } : {}),
    detail: { weft, baseline, ...detail },
  });
  log(
    `  ${metric}: ${fmt(weft.median)} ms vs ${fmt(baseline.median)} ms → ${ratio}×${
      note ? ` (${note})` : ""
    }`,
  );
}

/** Adds a row of bytes, met when within `budget` (if any). */
export function sizeRow(
  key: string,
  metric: string,
  size: number,
  budget: number | null,
  detail: Record<string, unknown> = {},
): void {
  const ratio = budget === null ? null : round(size / budget, 2);
  rows.push({
    key,
    metric,
    unit: "B",
    weft: size,
    baseline: budget,
    baselineLabel: "budget",
    ratio,
    aim: budget === null ? "—" : "≤ 1×",
    met: budget === null ? null : size <= budget,
    detail,
  });
  log(`  ${metric}: ${size} B${budget === null ? "" : ` of ${budget} B`}`);
}

/** Adds a row of a figure against its baseline's (a rate or a size), reported as a ratio, met within `aim`. */
export function valueRow(
  key: string,
  metric: string,
  weft: number,
  baseline: number,
  baselineLabel: string,
  unit: string,
  aim: number | null = null,
  detail?: Record<string, unknown>,
): void {
  const ratio = round(weft / baseline, 2);
  rows.push({
    key,
    metric,
    unit,
    weft,
    baseline,
    baselineLabel,
    ratio,
    aim: aim === null ? "—" : `≤ ${aim}×`,
    met: aim === null ? null : ratio <= aim,
    ...(detail ? { detail } : {}),
  });
  log(`  ${metric}: ${fmt(weft)} ${unit} vs ${fmt(baseline)} ${unit} → ${ratio}×`);
}

/** Adds a row that could not be measured, saying why. */
export function failedRow(key: string, metric: string, aim: string, reason: string): void {
  rows.push({
    key,
    metric,
    unit: "ms",
    weft: null,
    baseline: null,
    baselineLabel: "",
    ratio: null,
    aim,
    met: null,
    note: `n/a: ${reason}`,
  });
  log(`  ${metric}: n/a (${reason})`);
}

/** A figure with as many decimals as it deserves. */
export function fmt(value: number | null): string {
  if (value === null) return "n/a";
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** Progress, on stderr so stdout holds only the results. */
export function log(message: string): void {
  console.error(message);
}

/** An error as one short line for a row. */
export function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, " ").slice(0, 200);
}

/** The rows as a plain-text table. */
export function table(): string {
  const header = ["metric", "weft", "baseline", "ratio", "aim", ""];
  const body = rows.map((row) => [
    row.metric,
    row.weft === null ? "n/a" : `${fmt(row.weft)} ${row.unit}`,
    row.baseline === null ? "—" : `${fmt(row.baseline)} ${row.unit} (${row.baselineLabel})`,
    row.ratio === null ? "—" : `${row.ratio.toFixed(2)}×`,
    row.aim,
    row.met === null ? (row.note ?? "") : `${row.met ? "ok" : "MISSED"}${row.note ? ` — ${row.note}` : ""}`,
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...body].map((cells) => cells[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

/** The rows as docs/performance.md's table. */
export function markdown(meta: Record<string, unknown>): string {
  const lines = [
    "## Performance",
    "",
    `Measured by \`deno task bench\` on ${meta.cpus} cores (${meta.os}, Deno ${meta.deno}), ${meta.date}. ` +
    "Speed is given as ratios against a bare MCP SDK server (one low-level `Server` with an `echo` tool per " +
    "sessionful Streamable HTTP transport, `Deno.serve` on 127.0.0.1) measured in the same run; " +
    "absolute times vary with the machine. Medians. `status` calls alternate one by one with `echo` calls; " +
    "each Run or handoff is followed by a block of as many `echo` calls as it makes, whose time per call is " +
    "its baseline; the first Runs and handoffs warm up unmeasured.",
    "",
    "| Metric | weft | Baseline | Ratio | Aim | Met |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows.map((row) => {
      const weft = row.weft === null ? "n/a" : `${fmt(row.weft)} ${row.unit}`;
      const baseline = row.baseline === null
        ? "—"
        : `${fmt(row.baseline)} ${row.unit} (${row.baselineLabel})`;
      const ratio = row.ratio === null ? "—" : `${row.ratio.toFixed(2)}×`;
      const met = row.met === null ? "—" : row.met ? "yes" : "no";
      return `| ${row.metric} | ${weft} | ${baseline} | ${ratio} | ${row.aim} | ${met}${
        row.note ? ` (${row.note})` : ""
      } |`;
    }),
    "",
    "Start-to-ready is the time from spawning `deno run -A main.ts serve --project DIR --port 0` to its " +
    "ready line, in a fresh project (store created, tokens generated) or in one that has run before. Start-up rows also give each side's on-CPU time until ready (all threads of the process, from " +
    "`/proc`; for `weft mcp` its own, not the service's work on the forwarded `initialize`), and the `status` " +
    "and `get_run` rows each server's on-CPU time per call over the interleaved calls, which a loaded " +
    "machine disturbs far less than wall time. The fixture Run is `flow` → `answer_ask` (questions) → `answer_ask` " +
    "(confirmation) → `completed` on `/internal/mcp`. A handoff is `claim_agent_call`, two `call_agent_tool` " +
    "calls and `complete_agent_call` on `/mcp`; the concurrent row drives whole `intent` Runs (two handoffs " +
    "and two confirmations each) from 16 `/mcp` sessions at once. `list_artifacts` reads its default first " +
    "page of 50 from stores seeded with 100 and 20,000 distinct (flowName, stageName) Artifacts. The byte rows " +
    "count UTF-8 JSON: what an MCP client loads into its agent's context from each endpoint before the person " +
    "types (`tools/list` result plus `instructions`, against the endpoint's budget), and the structured " +
    "results of `get_run` (no timeline) and `claim_agent_call` for an `intent` Run's first agent call. " +
    "The notification row cancels a Run on `/internal/mcp` and waits until a `/mcp` session subscribed to it " +
    "receives `notifications/resources/updated`; the soak rows run the same seeded 16-session soak twice, the " +
    "second time with every session subscribed to each Run it starts (subscribe and unsubscribe count as calls).",
  ];
  return lines.join("\n");
}

/** The run's figures as one JSON line: `meta` (with the run's length and iterations) and every row by key. */
export function figures(meta: Record<string, unknown>): string {
  const all: Record<string, unknown> = { ...meta };
  for (const row of rows) {
    all[row.key] = {
      metric: row.metric,
      unit: row.unit,
      weft: row.weft,
      baseline: row.baseline,
      ratio: row.ratio,
      aim: row.aim,
      met: row.met,
      ...(row.note ? { note: row.note } : {}),
      ...(row.detail ?? {}),
    };
  }
  return JSON.stringify(all);
}
