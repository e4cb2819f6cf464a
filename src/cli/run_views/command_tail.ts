/**
 * A followed Run's running command, as its output arrives: each new whole line of stdout and stderr printed
 * once, under the command's start line, read from `weft://runs/{runId}/command` when the service says it
 * grew. When the command ends, only what was not printed yet is shown of its stored result. Every character
 * of a line is shown (`visibleText`): a carriage return or an escape sequence in the output cannot hide what
 * came before it on the line, nor move the cursor.
 *
 * @module
 */

import type { WeftClient } from "../../client/weft_client.ts";
import type { RunningCommandOutput, StreamTail } from "../../client/views.ts";
import { paint, type Stream } from "../terminal/format.ts";
import { visibleText } from "../../lib/visible_text.ts";

/** The resource of Run `runId`'s running command's output. */
export function commandOutputUri(runId: string): string {
  return `weft://runs/${runId}/command`;
}

type StreamName = "stdout" | "stderr";

/** How many bytes of each stream of one command this terminal has printed. */
interface Printed {
  stdout: number;
  stderr: number;
}

/** Prints the lines of a followed Run's running command as they arrive. */
export class CommandTail {
  readonly #printed = new Map<string, Printed>();
  /** The command running now, as last read, for the progress line. */
  #current: RunningCommandOutput | undefined;
  #encoder = new TextEncoder();

  constructor(readonly stream: Stream) {}

  /** The command running now, as last read (for how long it has run). */
  get current(): RunningCommandOutput | undefined {
    return this.#current;
  }

  /** Reads the Run's running command's output and prints each whole line not printed yet. */
  async update(client: WeftClient, runId: string, say: (line: string) => void): Promise<void> {
    const read = await client.read<{ command: RunningCommandOutput | null } | null>(commandOutputUri(runId));
    const command = read?.command ?? undefined;
    this.#current = command;
    if (!command) return;
    let printed = this.#printed.get(command.commandId);
    if (!printed) this.#printed.set(command.commandId, printed = { stdout: 0, stderr: 0 });
    for (const name of ["stdout", "stderr"] as const) {
      const { lines, upTo } = this.#newLines(command[name], printed[name], false);
      printed[name] = upTo;
      for (const line of lines) say(this.#line(name, line));
    }
  }

  /** Whether any output of command `commandId` was followed here as it arrived. */
  followed(commandId: string): boolean {
    return this.#printed.has(commandId);
  }

  /** The lines of an ended command's stored stream `name` that this terminal has not printed. */
  rest(commandId: string, name: StreamName, tail: StreamTail): string[] {
    const printed = this.#printed.get(commandId);
    if (!printed) return [];
    const { lines, upTo } = this.#newLines(tail, printed[name], true);
    printed[name] = upTo;
    return lines.map((line) => this.#line(name, line));
  }

  /**
   * The whole lines of `tail` after its first `printed` bytes (with a last unfinished one when `all`), and
   * how many bytes are printed after them. Output cut before it could be printed is said, not skipped over.
   */
  #newLines(tail: StreamTail, printed: number, all: boolean): { lines: string[]; upTo: number } {
    const bytes = this.#encoder.encode(tail.text);
    let start = printed - tail.cutBytes;
    const lost = start < 0 ? -start : 0;
    start = Math.max(0, start);
    const fresh = bytes.subarray(start);
    const end = all ? fresh.length : fresh.lastIndexOf(0x0a) + 1;
    if (end <= 0) return { lines: [], upTo: printed };
    const text = new TextDecoder().decode(fresh.subarray(0, end)).replace(/\n$/, "");
    const lines = text.split("\n").map(visibleText);
    if (lost) lines.unshift(paint("dim", `… ${lost} bytes not shown`, this.stream));
    return { lines, upTo: tail.cutBytes + start + end };
  }

  #line(name: StreamName, text: string): string {
    return `    │ ${name === "stderr" ? paint("yellow", text, this.stream) : text}`;
  }
}
