/**
 * Terminal prompts for `weft attach`: one line, a choice, or several lines of text, read from stdin in the
 * terminal's own line mode (so editing keys and Ctrl-C behave as everywhere else). Prompts go to stderr,
 * which keeps stdout for what the command reports.
 *
 * @module
 */

import { LineReader } from "../../lib/line_reader.ts";
import { paint } from "./format.ts";
import { write } from "./screen.ts";

/** Whether a command given `PROMPT_OPTIONS` prompts: only on a terminal, never under --json. */
export function promptsHere(options: { "no-interactive": boolean }, json: boolean): boolean {
  return !json && !options["no-interactive"] && Deno.stdin.isTerminal();
}

/** One choice of {@linkcode Prompter.choose}: what the person may type, and what it means. */
export interface Choice<T> {
  keys: string[];
  value: T;
}

/** Reads answers line by line from one input; `null` from any method means the input ended. */
export class Prompter {
  #lines: LineReader;

  constructor(input: ReadableStream<Uint8Array> = Deno.stdin.readable, readonly output = Deno.stderr) {
    this.#lines = new LineReader(input);
  }

  /** Writes `text` without a line break, its control characters made visible (`screen.ts`). */
  write(text: string): void {
    write(text, this.output);
  }

  /** Shows `prompt` and reads one line, without its line break. */
  async line(prompt: string): Promise<string | null> {
    this.write(paint("cyan", prompt, this.output));
    return await this.#lines.next();
  }

  /** Asks until the typed line matches one of `choices` (case-insensitive); `null` when input ends. */
  async choose<T>(prompt: string, choices: Choice<T>[]): Promise<T | null> {
    while (true) {
      const typed = await this.line(prompt);
      if (typed === null) return null;
      const key = typed.trim().toLowerCase();
      const match = choices.find((choice) => choice.keys.some((k) => k.toLowerCase() === key));
      if (match) return match.value;
      this.write(
        paint("yellow", `  please type one of: ${choices.map((c) => c.keys[0]).join(", ")}\n`, this.output),
      );
    }
  }

  /** Reads lines until an empty one; returns them joined (possibly empty), or `null` when input ends first. */
  async lines(prompt: string): Promise<string | null> {
    this.write(paint("cyan", prompt, this.output) + "\n");
    const collected: string[] = [];
    while (true) {
      const typed = await this.line("  │ ");
      if (typed === null) return collected.length ? collected.join("\n") : null;
      if (!typed.trim()) return collected.join("\n");
      collected.push(typed);
    }
  }

  /** Stops reading the input. */
  async close(): Promise<void> {
    await this.#lines.cancel();
  }
}
