/**
 * The service log: one JSON object per line in `.weft/logs/<instanceId>.jsonl`.
 *
 * Callers pass only operational fields (ids, codes, timings). Intents, answers, tokens, Studio tickets and
 * cookies, and stage data never belong here; {@linkcode Logger.log} also drops any field whose name suggests
 * a secret as a second guard.
 *
 * @module
 */

import { join } from "node:path";

/** One structured log event. */
export type LogFields = Record<string, unknown>;

const FORBIDDEN_FIELD = /token|authorization|intent|answer|secret|password|ticket|cookie/i;

/** Appends JSON lines to one instance's log file; writes are synchronous so a crash loses at most one line. */
export class Logger {
  #file: Deno.FsFile | null;
  #encoder = new TextEncoder();

  private constructor(file: Deno.FsFile | null, readonly path: string | null) {
    this.#file = file;
  }

  /** Opens (appending) the log of one instance. */
  static open(logsDir: string, instanceId: string): Logger {
    const path = join(logsDir, `${instanceId}.jsonl`);
    const file = Deno.openSync(path, { append: true, create: true, mode: 0o600 });
    return new Logger(file, path);
  }

  /** A logger that writes nothing, for tests and in-process tools. */
  static silent(): Logger {
    return new Logger(null, null);
  }

  /** Writes one event. Never throws: logging must not break a request. */
  log(event: string, fields: LogFields = {}): void {
    if (!this.#file) return;
    const line: LogFields = { at: new Date().toISOString(), event };
    for (const [key, value] of Object.entries(fields)) {
      if (!FORBIDDEN_FIELD.test(key)) line[key] = value;
    }
    try {
      this.#file.writeSync(this.#encoder.encode(JSON.stringify(line) + "\n"));
    } catch {
      // A full disk must not take the service down with it.
    }
  }

  /** Closes the file. */
  close(): void {
    this.#file?.close();
    this.#file = null;
  }
}
