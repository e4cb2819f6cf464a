/**
 * One command run as its own process group: spawned detached (a new session, so its own group), no shell,
 * no standard input, only the environment given and {@linkcode COMMAND_TAG}. Its timeout, an abort (cancel,
 * service stop) and its own end all end the whole group: `SIGTERM`, then `SIGKILL` after a grace period, so
 * a test runner's children do not outlive it. Then every process that left the group or its session
 * (`setsid`, a daemon's double fork) is killed too, found by the command's tag in its environment (Linux
 * only; a process that replaces its whole environment is not found). Its output goes into bounded tails as
 * it arrives; once the group is ended, our end of each pipe is closed, so a process that left the group
 * cannot hold a reader of the service.
 *
 * @module
 */
import type { CommandResult } from "../engine/command_step.ts";
import { randomId } from "../lib/tokens.ts";
import { killByEnvironment } from "../lib/tagged_processes.ts";
import { OutputTail } from "./output_tail.ts";

/** The variable that carries a command's tag to every process it starts, so that each can be ended. */
export const COMMAND_TAG = "WEFT_COMMAND_TAG";

/** Kills every process that still carries the command's tag (those that left its group); their pids. */
export function endTaggedProcesses(tag: string): Promise<number[]> {
  return killByEnvironment(COMMAND_TAG, tag);
}

/** What to run and how long it may take. */
export interface GroupOptions {
  argv: string[];
  /** An absolute folder. */
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Aborting ends the group; the run then reports `aborted`. */
  signal: AbortSignal;
  tailBytes?: number;
  /** How long the group has between `SIGTERM` and `SIGKILL`. */
  graceMs: number;
  /** Told the group's id (its leader's pid) and the command's tag (in its processes' environment) once started. */
  onSpawn?: (pid: number, tag: string) => void;
  /**
   * Where each stream's output goes as it arrives (a live view reads them while the command runs); by
   * default tails of `tailBytes` of the group's own.
   */
  output?: { stdout: OutputTail; stderr: OutputTail };
  /** Told after each chunk of output is taken. */
  onOutput?: () => void;
}

/** How a run ended: with a result, without a program to start, or aborted. */
export type GroupEnd =
  | { kind: "result"; result: CommandResult }
  | { kind: "not_started"; reason: string }
  | { kind: "aborted" };

/** Runs `options.argv` as its own process group and waits until the whole group has been ended. */
export async function runProcessGroup(options: GroupOptions): Promise<GroupEnd> {
  const [program, ...args] = options.argv;
  const started = performance.now();
  const tag = randomId(16);
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      cwd: options.cwd,
      env: { ...options.env, [COMMAND_TAG]: tag },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
  } catch (error) {
    return { kind: "not_started", reason: spawnFailure(program, error) };
  }
  options.onSpawn?.(child.pid, tag);
  const { stdout, stderr } = options.output ??
    { stdout: new OutputTail(options.tailBytes), stderr: new OutputTail(options.tailBytes) };
  const onOutput = options.onOutput ?? (() => {});
  const readers = [
    new PipeReader(child.stdout, stdout, onOutput),
    new PipeReader(child.stderr, stderr, onOutput),
  ];
  let timedOut = false;
  let ending: Promise<void> | undefined;
  const end = () => ending ??= endGroup(child.pid, child.status, options.graceMs);
  const timer = setTimeout(() => {
    timedOut = true;
    end();
  }, options.timeoutMs);
  const onAbort = () => end();
  options.signal.addEventListener("abort", onAbort, { once: true });
  // Aborted while it was being spawned: the listener above would never hear of it.
  if (options.signal.aborted) end();
  try {
    const status = await child.status;
    // The leader has ended: a timer or an abort from now on would misreport how it ended.
    clearTimeout(timer);
    options.signal.removeEventListener("abort", onAbort);
    // The leader is gone; what it left behind in its group is not to run on.
    signalGroup(child.pid, "SIGKILL");
    await ending;
    // What left the group (or its session) is not to run on either.
    await endTaggedProcesses(tag);
    // A process that left the group may still hold a pipe: the streams get the grace period, no more.
    await within(Promise.all(readers.map((reader) => reader.done)), options.graceMs);
    if (options.signal.aborted && !timedOut) return { kind: "aborted" };
    return {
      kind: "result",
      result: {
        exitCode: status.signal ? null : status.code,
        signal: status.signal ?? null,
        timedOut,
        durationMs: Math.round(performance.now() - started),
        stdout: stdout.tail(),
        stderr: stderr.tail(),
      },
    };
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", onAbort);
    // Closes our end of each pipe: a process that left the group and still writes gets EPIPE, not a reader.
    await Promise.all(readers.map((reader) => reader.cancel()));
  }
}

/** Asks the group to end, and kills it if the leader is still there after the grace period. */
async function endGroup(pid: number, status: Promise<Deno.CommandStatus>, graceMs: number): Promise<void> {
  signalGroup(pid, "SIGTERM");
  let exited = false;
  await within(status.then(() => exited = true), graceMs);
  if (!exited) signalGroup(pid, "SIGKILL");
}

function signalGroup(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/**
 * Reads one pipe into a tail through a reader of its own, which can be cancelled while a read waits (a
 * locked stream's own `cancel()` rejects, so the pipe would stay open for as long as anyone writes to it).
 */
class PipeReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  /** Resolves once the pipe has ended or been cancelled. */
  readonly done: Promise<void>;

  constructor(stream: ReadableStream<Uint8Array>, tail: OutputTail, onChunk: () => void) {
    this.#reader = stream.getReader();
    this.done = this.#pump(tail, onChunk);
  }

  async #pump(tail: OutputTail, onChunk: () => void): Promise<void> {
    try {
      while (true) {
        const { done, value } = await this.#reader.read();
        if (done) return;
        tail.push(value);
        onChunk();
      }
    } catch {
      // The pipe failed: what arrived is kept.
    }
  }

  /** Ends the read in progress and closes the pipe; what arrived is kept. */
  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
    await this.done;
  }
}

/** Waits for `work`, or `ms` at most. */
async function within(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([work, new Promise((resolve) => timer = setTimeout(resolve, ms))]);
  clearTimeout(timer);
}

/** Why a program could not start, naming the program (from the workflow) and never a path of the machine. */
function spawnFailure(program: string, error: unknown): string {
  if (error instanceof Deno.errors.NotFound) {
    return `the program "${program}" was not found on the service's PATH`;
  }
  if (error instanceof Deno.errors.PermissionDenied) return `the program "${program}" may not be run`;
  return `the program "${program}" could not be started (${(error as Error)?.name ?? "unknown error"})`;
}
