/**
 * The output of the commands running now, in memory: each one's stdout and stderr tails (the very tails its
 * result is taken from, so a reader sees exactly what will be kept) and the listeners told when they grow.
 * A command printing a line a millisecond would tell a thousand times a second; growth is told at most once
 * per interval per Run instead (the first chunk at once, the rest at the interval's end), so the cost to
 * every listener stays bounded however fast the output comes.
 *
 * @module
 */
import type { CommandOutputSource, RunningCommandOutput } from "../engine/command_output.ts";
import { OutputTail } from "./output_tail.ts";

/** How often, at most, the growth of one command's output is told. */
export const OUTPUT_INTERVAL_MS = 250;

/** One running command's tails, which its process group writes into. */
export interface LiveCommand {
  readonly stdout: OutputTail;
  readonly stderr: OutputTail;
  /** Tells the listeners that the output grew, coalesced to at most once per interval. */
  grew(): void;
}

interface Entry extends LiveCommand {
  commandId: string;
  run: string[];
  startedAt: string;
  /** Ends the entry's pending timer. */
  dispose(): void;
}

/** The running commands' output, by Run. */
export class LiveOutput implements CommandOutputSource {
  readonly #running = new Map<string, Entry>();
  readonly #listeners = new Set<(runId: string) => void>();
  readonly #intervalMs: number;
  readonly #now: () => number;

  constructor(options: { intervalMs?: number; now?: () => number } = {}) {
    this.#intervalMs = options.intervalMs ?? OUTPUT_INTERVAL_MS;
    this.#now = options.now ?? Date.now;
  }

  /** Registers the command Run `runId` starts now, with tails of `tailBytes`; tells the listeners. */
  begin(runId: string, commandId: string, run: string[], tailBytes?: number): LiveCommand {
    this.#running.get(runId)?.dispose();
    let told = this.#now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tell = () => {
      timer = undefined;
      told = this.#now();
      this.#tell(runId);
    };
    const entry: Entry = {
      commandId,
      run,
      startedAt: new Date(told).toISOString(),
      stdout: new OutputTail(tailBytes),
      stderr: new OutputTail(tailBytes),
      grew: () => {
        if (timer !== undefined || this.#running.get(runId) !== entry) return;
        const wait = told + this.#intervalMs - this.#now();
        if (wait <= 0) tell();
        else timer = setTimeout(tell, wait);
      },
      dispose: () => clearTimeout(timer),
    };
    this.#running.set(runId, entry);
    this.#tell(runId);
    return entry;
  }

  /** Forgets the command once its Run has recorded how it ended (or it was abandoned); tells the listeners. */
  end(runId: string, commandId: string): void {
    const entry = this.#running.get(runId);
    if (entry?.commandId !== commandId) return;
    entry.dispose();
    this.#running.delete(runId);
    this.#tell(runId);
  }

  outputOf(runId: string): RunningCommandOutput | undefined {
    const entry = this.#running.get(runId);
    if (!entry) return undefined;
    return {
      commandId: entry.commandId,
      run: entry.run,
      startedAt: entry.startedAt,
      stdout: entry.stdout.tail(),
      stderr: entry.stderr.tail(),
    };
  }

  onOutput(listener: (runId: string) => void): () => void {
    const registered = (runId: string) => listener(runId);
    this.#listeners.add(registered);
    return () => void this.#listeners.delete(registered);
  }

  #tell(runId: string): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(runId);
      } catch {
        // A listener only marks what to send later; one that throws must not silence the others.
      }
    }
  }
}
