/**
 * Terminal output of the `weft` command: colour, aligned tables, relative times and JSON.
 *
 * Colour is used only when the stream is a terminal, `NO_COLOR` is unset or empty (https://no-color.org) and
 * no `--no-color` was given, so piped output and logs never carry escape sequences. What these build is
 * written with `say` (`screen.ts`), which makes every control character in it visible and turns only
 * `paint`'s colours into escapes.
 *
 * @module
 */

import { visibleJson, visibleLine, visibleText } from "../../lib/visible_text.ts";
import { pasteableText, weftCommand } from "./invocation.ts";
import { colour, say, type Stream, uncoloured } from "./screen.ts";

export type { Stream };

const CODES = { bold: 1, dim: 2, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36 } as const;

/** A colour or weight the output uses. */
export type Tone = keyof typeof CODES;

/** Set by `--no-color`, for the rest of the process. */
let colorOff = false;

/** Turns colour off for the rest of the process (`--no-color`), as `NO_COLOR` does. */
export function disableColor(): void {
  colorOff = true;
}

/** Whether text written to `stream` may be coloured. */
export function colorEnabled(stream: Stream = Deno.stdout): boolean {
  return !colorOff && stream.isTerminal() && !Deno.env.get("NO_COLOR");
}

/** Paints `text` with `tone` when `stream` takes colour; otherwise returns it unchanged. */
export function paint(tone: Tone, text: string, stream: Stream = Deno.stdout): string {
  return colorEnabled(stream) ? colour(CODES[tone], text) : text;
}

/** The tone that conveys a Run status at a glance. */
export function statusTone(status: string): Tone {
  switch (status) {
    case "completed":
      return "green";
    case "waiting":
      return "yellow";
    case "failed":
      return "red";
    case "cancelled":
      return "magenta";
    default:
      return "cyan";
  }
}

/** The width `text` takes on screen: without its colours, with its control characters shown as escapes. */
export function visibleWidth(text: string): number {
  return [...visibleText(uncoloured(text))].length;
}

/**
 * Aligns rows under a header, two spaces between columns; the last column is never padded, and its further
 * lines (a cell may hold several) start under its first. Any other cell is kept to one line (its line feeds
 * and tabs shown as `\n` and `\t`), so that no text in it can start a row of its own.
 */
export function table(header: string[], rows: string[][], stream: Stream = Deno.stdout): string {
  return tableLayout(header, rows, stream).text;
}

/** {@linkcode table}, and the column at which its last column starts (to fit that column to a width). */
export function tableLayout(
  header: string[],
  rows: string[][],
  stream: Stream = Deno.stdout,
): { text: string; lastColumn: number } {
  const last = header.length - 1;
  const all = [header, ...rows].map((row) =>
    row.map((cell, column) => column === last ? cell : visibleLine(cell))
  );
  const widths = header.map((_, column) => Math.max(...all.map((row) => visibleWidth(row[column] ?? ""))));
  const lastColumn = widths.slice(0, last).reduce((sum, width) => sum + width + 2, 0);
  const line = (row: string[]) =>
    row.map((cell, column) =>
      column === last
        ? cell.replaceAll("\n", "\n" + " ".repeat(lastColumn))
        : cell + " ".repeat(widths[column] - visibleWidth(cell))
    ).join("  ").trimEnd();
  const [head, ...body] = all;
  return { text: [paint("dim", line(head), stream), ...body.map(line)].join("\n"), lastColumn };
}

/**
 * How many columns the output may take: the terminal's width, else `COLUMNS` when set (as shells export it),
 * else 120.
 */
export function outputWidth(stream: Stream = Deno.stdout): number {
  if (stream.isTerminal()) {
    try {
      return Deno.consoleSize().columns;
    } catch {
      // A terminal that reports no size: fall through.
    }
  }
  const columns = Number(Deno.env.get("COLUMNS"));
  return Number.isInteger(columns) && columns > 0 ? columns : 120;
}

/**
 * Shortens `text` to one line of at most `max` characters, with an ellipsis when cut. Only spaces, tabs and
 * line feeds are flattened: a carriage return or another control character stays, to be shown as an escape.
 */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/[ \t\n]+/g, " ").trim();
  return flat.length <= max ? flat : flat.slice(0, max - 1) + "…";
}

/** Says how long ago `iso` was, the way people say it ("just now", "5 min ago", "3 days ago"). */
export function relativeTime(iso: string, now: Date = new Date()): string {
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return iso;
  const seconds = Math.round((now.getTime() - then.getTime()) / 1000);
  if (seconds < 0) return "just now";
  if (seconds < 5) return "just now";
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days < 30) return `${days} days ago`;
  return iso.slice(0, 10);
}

/** Formats a duration in milliseconds as `m:ss` (or `h:mm:ss`), for the live indicator. */
export function elapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const [h, m, s] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const pad = (n: number) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** Indents every line of `text` by `spaces`. */
export function indent(text: string, spaces = 2): string {
  return text.split("\n").map((line) => " ".repeat(spaces) + line).join("\n");
}

/** Prints the business JSON of a command on stdout, one document, pretty for people who look at it. */
export function printJson(value: unknown): void {
  say(visibleJson(value, 2));
}

/**
 * Formats a next-step hint ("answer with: weft attach RUN") in the quiet tone of hints. A command that starts
 * with `weft ` is printed as it runs where the person is ({@linkcode weftCommand}); `note` follows it.
 */
export function hint(label: string, command: string, stream: Stream = Deno.stdout, note = ""): string {
  const shown = command.startsWith("weft ") ? weftCommand(command.slice("weft ".length)) : command;
  return paint("dim", `${label}: `, stream) + paint("bold", shown, stream) +
    (note ? paint("dim", `  ${pasteableText(note)}`, stream) : "");
}
