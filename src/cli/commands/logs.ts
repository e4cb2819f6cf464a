/**
 * `weft logs [runId] [--follow]`: the service's JSON-lines logs of this project, oldest first, read from
 * `.weft/logs/` directly so they are there when the service is not. The logs never hold intents, answers
 * or tokens, so printing them is safe.
 *
 * @module
 */

import { join } from "node:path";
import { weftPaths } from "../../weft_dir/paths.ts";
import { parseCommand, UsageError } from "../args.ts";
import { paint, usage } from "../format.ts";
import { guarded } from "./failure.ts";

const POLL_MS = 500;

/** One parsed log line. */
type LogLine = { at?: string; event?: string; [field: string]: unknown };

/** `weft logs` */
export const logsCommand = guarded("logs", async (args) => {
  const { common, values, positionals } = parseCommand(args, {
    follow: { type: "boolean", short: "f", default: false },
  });
  if (common.help) return usage("logs [runId] [--follow] [--json]", HELP);
  if (positionals.length > 1) throw new UsageError("takes at most one Run id");
  const [runId] = positionals;
  const tail = new LogTail(weftPaths(common.projectDir).logs);
  const show = (lines: LogLine[]) => {
    for (const line of lines.filter((line) => runId === undefined || line.runId === runId)) {
      console.log(common.json ? JSON.stringify(line) : human(line));
    }
  };
  show(await tail.read());
  if (!values.follow) return 0;
  const stop = new Promise<void>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, () => resolve());
  });
  while (true) {
    const stopped = await Promise.race([stop.then(() => true), delay(POLL_MS).then(() => false)]);
    if (stopped) return 0;
    show(await tail.read());
  }
});

/** Reads what was appended to every log file since the last read, in time order across files. */
class LogTail {
  #offsets = new Map<string, number>();

  constructor(readonly dir: string) {}

  async read(): Promise<LogLine[]> {
    const lines: LogLine[] = [];
    for (const name of await this.#files()) {
      const path = join(this.dir, name);
      const bytes = await Deno.readFile(path).catch(() => new Uint8Array());
      const offset = this.#offsets.get(path) ?? 0;
      // Only whole lines are taken; a line still being written is read on the next round.
      const end = bytes.lastIndexOf(0x0a) + 1;
      if (end <= offset) continue;
      this.#offsets.set(path, end);
      for (const text of new TextDecoder().decode(bytes.subarray(offset, end)).split("\n")) {
        const line = parse(text);
        if (line) lines.push(line);
      }
    }
    return lines.sort((a, b) => String(a.at ?? "").localeCompare(String(b.at ?? "")));
  }

  async #files(): Promise<string[]> {
    const names: string[] = [];
    try {
      for await (const entry of Deno.readDir(this.dir)) {
        if (entry.isFile && entry.name.endsWith(".jsonl")) names.push(entry.name);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    return names.sort();
  }
}

function parse(text: string): LogLine | undefined {
  if (!text.trim()) return undefined;
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function human(line: LogLine): string {
  const { at, event, ...fields } = line;
  const when = typeof at === "string" ? at.replace("T", " ").replace(/\.\d+Z$/, "Z") : "";
  const details = Object.entries(fields)
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`).join(" ");
  return `${paint("dim", when)}  ${paint("bold", String(event ?? ""))}  ${details}`.trimEnd();
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const HELP = `Prints the service's logs of this project (.weft/logs/*.jsonl), oldest first. The logs hold
operational facts only (events, ids, codes, timings), never intents, answers or tokens.

  runId       only the lines about this Run
  --follow    keep printing new lines as they are written, until Ctrl-C
  --json      print the lines as they are stored: one JSON object per line`;
