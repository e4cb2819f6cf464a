/**
 * The one way the `weft` command's words reach its stdout and stderr. Everything written is made visible
 * first (`visibleText`): a repository's files, a workflow's words, what an agent or a model wrote, a command's
 * output and an error that quotes any of them cannot move the cursor, erase a line or retitle the window, so
 * what a person reads, trusts or confirms is what the text holds. Only weft's own escapes pass: the colours
 * `paint` marks with {@linkcode colour} (a mark no text from elsewhere can forge, since it holds a random
 * word of this process) and the live line's redraw ({@linkcode redraw}). Nothing else in `src/cli/` writes to
 * the terminal (`tests/architecture/terminal_output.test.ts`).
 *
 * @module
 */

import { visibleText } from "../../lib/visible_text.ts";

/** A stream the command writes to. */
export type Stream = typeof Deno.stdout | typeof Deno.stderr;

/** Opens a colour mark: a noncharacter and a word chosen at random when the process starts. */
const MARK = `\ufdd0${crypto.randomUUID().replaceAll("-", "")}:`;
/** A colour mark and its SGR code. */
const MARKED = new RegExp(`${MARK}(\\d+)m`, "g");

const encoder = new TextEncoder();

/** `text` in SGR colour `code`, marked so that only {@linkcode say}, {@linkcode write} and {@linkcode redraw} turn it into escapes. */
export function colour(code: number, text: string): string {
  return `${MARK}${code}m${text}${MARK}0m`;
}

/** `text` without the colour marks of {@linkcode colour}, as it takes room on screen. */
export function uncoloured(text: string): string {
  return text.replace(MARKED, "");
}

/** Writes `text` and a line break to `stream` (stdout by default), its control characters made visible. */
export function say(text: string, stream: Stream = Deno.stdout): void {
  write(text + "\n", stream);
}

/** Writes `text` to `stream` without a line break, its control characters made visible. */
export function write(text: string, stream: Stream): void {
  writeAll(stream, screenText(text));
}

/** Replaces the line the cursor is on with `text` (nothing: clears it), for a live indicator. */
export function redraw(text: string, stream: Stream): void {
  writeAll(stream, `\r\x1b[2K${screenText(text)}`);
}

/** `text` as the terminal gets it: visible, with weft's own colour marks turned into SGR escapes. */
function screenText(text: string): string {
  let shown = "";
  let from = 0;
  for (const mark of text.matchAll(MARKED)) {
    shown += visibleText(text.slice(from, mark.index)) + `\x1b[${mark[1]}m`;
    from = mark.index + mark[0].length;
  }
  return shown + visibleText(text.slice(from));
}

function writeAll(stream: Stream, text: string): void {
  const bytes = encoder.encode(text);
  let written = 0;
  while (written < bytes.length) written += stream.writeSync(bytes.subarray(written));
}
