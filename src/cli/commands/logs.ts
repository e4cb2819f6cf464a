/**
 * `weft logs [runId] [--follow]`: the service's JSON-lines logs of this project, oldest first, read from
 * `.weft/logs/` directly so they are there when the service is not. The logs never hold intents, answers
 * or tokens, so printing them is safe.
 *
 * @module
 */

import { dirname, join } from "node:path";
import { weftPaths } from "../../weft_dir/paths.ts";
import { UsageError } from "../command_line/args.ts";
import { defineCommand } from "../command_line/command.ts";
import { EXIT } from "../command_line/exit_codes.ts";
import { paint } from "../terminal/format.ts";
import { say } from "../terminal/screen.ts";
import { visibleJson } from "../../lib/visible_text.ts";

/** One parsed log line. */
type LogLine = { at?: string; event?: string; [field: string]: unknown };

/** `weft logs` */
export const logsCommand = defineCommand({
  name: "logs",
  summary: "print the service's logs of this project (--follow to keep reading)",
  synopsis: "logs [runId] [--follow]",
  description: `Prints the service's logs of this project (.weft/logs/*.jsonl), oldest first, or only the
lines about the Run runId. The logs hold operational facts only (events, ids, codes, timings),
never intents, answers or tokens.`,
  options: {
    follow: {
      type: "boolean",
      short: "f",
      help: "keep printing new lines as they are written, until Ctrl-C",
    },
  },
  json: "print the lines as they are stored: one JSON object per line",
  async run({ options, positionals, projectDir, json }) {
    if (positionals.length > 1) throw new UsageError("takes at most one Run id");
    const [runId] = positionals;
    const tail = new LogTail(weftPaths(projectDir).logs);
    const show = (lines: LogLine[]) => {
      for (const line of lines.filter((line) => runId === undefined || line.runId === runId)) {
        say(json ? visibleJson(line) : human(line));
      }
    };
    // Listening before the first line is shown: a Ctrl-C as soon as lines appear must end it cleanly too.
    let watcher: Deno.FsWatcher | undefined;
    let stopped = false;
    for (const signal of options.follow ? ["SIGINT", "SIGTERM"] as const : []) {
      Deno.addSignalListener(signal, () => {
        stopped = true;
        watcher?.close();
      });
    }
    show(await tail.read());
    if (!options.follow) return EXIT.OK;
    // The logs are files the service appends to: wait on the file system's change events, not on a timer.
    while (!stopped) {
      const watched = await nearestFolder(tail.dir);
      watcher = Deno.watchFs(watched, { recursive: false });
      // A signal while the folder was looked up closed the watcher before this one: nothing would close it.
      if (stopped) {
        watcher.close();
        break;
      }
      // Lines written before the watch began are read now; later ones raise events.
      show(await tail.read());
      for await (const _event of watcher) {
        show(await tail.read());
        // Before the service first wrote its logs, a folder above was watched: move down once they exist.
        if (watched !== tail.dir && await isFolder(tail.dir)) break;
      }
      if (!stopped) watcher.close();
    }
    return EXIT.OK;
  },
});

/** `dir`, or the nearest folder above it that exists. */
async function nearestFolder(dir: string): Promise<string> {
  while (!(await isFolder(dir)) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

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
