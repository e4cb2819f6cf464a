/**
 * Long text shown a page at a time at a prompt, in blocks (a diff's files): Enter shows the next page, `n`
 * goes to the next block, `s` skips the rest. It reads the person's keys through the same {@linkcode Prompter}
 * as the question that follows, so nothing runs beside weft (no external pager) and a test types the keys.
 *
 * @module
 */

import { paint } from "./format.ts";
import type { Prompter } from "./prompt.ts";

/** The page length when the terminal does not say its height (nor `LINES` does). */
const DEFAULT_ROWS = 40;

/** How many lines at a block's start never end a page. */
const HEADER_LINES = 3;

/** How many lines fit on a page of the terminal, the prompt's line left free. */
export function pageRows(): number {
  let rows = 0;
  try {
    rows = Deno.consoleSize().rows;
  } catch {
    // not a terminal: `LINES`, else the default
  }
  if (rows <= 0) rows = Number(Deno.env.get("LINES")) || DEFAULT_ROWS;
  return Math.max(5, rows - 2);
}

/**
 * Writes `blocks` through `prompter`, a page at a time, the first page `above` lines shorter (what was
 * written just before it stays on screen); false when the input ended while paging.
 */
export async function pageBlocks(
  prompter: Prompter,
  blocks: string[][],
  above = 0,
  rows = pageRows(),
): Promise<boolean> {
  const lines = blocks.flatMap((block, index) => block.map((text) => ({ text, block: index })));
  const show = (from: number, to: number) =>
    prompter.write(lines.slice(from, to).map((line) => line.text + "\n").join(""));
  let at = 0;
  while (at < lines.length) {
    const page = at === 0 ? Math.max(5, rows - above) : rows;
    let end = Math.min(at + page, lines.length);
    // A block's first lines (a file's header) go with the rest of it on the next page, not alone at the end.
    const start = lines.findIndex((line) => line.block === lines[end]?.block);
    if (end < lines.length && start > at && end - start < HEADER_LINES) end = start;
    show(at, end);
    at = end;
    if (at >= lines.length) break;
    const choice = await prompter.choose(
      `-- line ${at} of ${lines.length} · Enter: more · n: next file · s: skip the rest -- `,
      [
        { keys: ["", "more"], value: "more" as const },
        { keys: ["n", "next"], value: "next" as const },
        { keys: ["s", "skip", "q"], value: "skip" as const },
      ],
    );
    if (choice === null) return false;
    if (choice === "skip") {
      prompter.write(paint("dim", `(${lines.length - at} more lines not shown)`, prompter.output) + "\n");
      break;
    }
    if (choice === "next") {
      const shown = lines[at - 1].block;
      while (at < lines.length && lines[at].block === shown) at++;
    }
  }
  return true;
}
