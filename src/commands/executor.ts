/**
 * The service as the runner of command steps: it watches the change feed for Runs waiting on a pending
 * command, decides whether the person trusts it (`command_trust.ts`), runs it as its own process group
 * (`process_group.ts`) and reports the result through one engine operation, from which the state machine
 * decides the outcome. At most {@linkcode DEFAULT_MAX_COMMANDS} commands run at once across Runs; a Run past
 * the bound waits its turn in arrival order. Cancelling the Run, or stopping the service, ends the group.
 * While it runs, its output is served as it arrives (`live_output.ts`) and its group is recorded
 * (`group_ledger.ts`), so that a start after a crash can end it.
 *
 * @module
 */
import { errorKind, WeftError } from "../errors.ts";
import type { Engine } from "../engine/engine.ts";
import type { RunView } from "../engine/views.ts";
import { join } from "node:path";
import { resolveCommandFolder } from "../engine/command_folder.ts";
import type { ProjectTree } from "../engine/project_tree.ts";
import type { ModelConfig } from "../model/config.ts";
import type { WorkInProgress } from "../lib/work_in_progress.ts";
import { decideCommand } from "./command_trust.ts";
import type { GroupLedger, GroupRecord } from "./group_ledger.ts";
import { LiveOutput } from "./live_output.ts";
import { runProcessGroup } from "./process_group.ts";

/** How many commands run at once across all Runs, unless told otherwise. */
export const DEFAULT_MAX_COMMANDS = 2;

/** The variables every command gets from the service's environment, beside the ones its step names. */
export const BASE_ENV = ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"] as const;

/** The engine operations the executor uses. */
export type CommandEngine = Pick<
  Engine,
  | "onRunChanged"
  | "getRun"
  | "commandSpec"
  | "startCommand"
  | "blockCommand"
  | "completeCommand"
  | "failCommand"
>;

/** Options of {@linkcode CommandExecutor}. */
export interface CommandExecutorOptions {
  engine: CommandEngine;
  /** The project root, free of links: commands run in it or in a folder below it. */
  projectDir: string;
  /** The same folder as the engine's tree, through which a command's folder is checked before it starts. */
  projectTree: ProjectTree;
  /** The configuration and trust as they are on disk now. */
  config: () => ModelConfig;
  /** The service's environment, read at each start. */
  env: (name: string) => string | undefined;
  log: (event: Record<string, unknown>) => void;
  work?: WorkInProgress;
  maxConcurrent?: number;
  /** Between `SIGTERM` and `SIGKILL` of a group being ended; default 2 s. */
  graceMs?: number;
  tailBytes?: number;
  /** Where the running commands' output is served from as it arrives (one of its own by default). */
  output?: LiveOutput;
  /** Where each running group is recorded, so that a start after a crash can end it. */
  ledger?: GroupLedger;
}

interface Job {
  runId: string;
  commandId: string;
  site: { workflow: string; stage: string; step: string };
  controller: AbortController;
}

/** Runs the pending commands of every Run. */
export class CommandExecutor {
  readonly #options: CommandExecutorOptions;
  readonly #queue: Job[] = [];
  readonly #running = new Map<string, { job: Job; done: Promise<void> }>();
  readonly #pids = new Map<string, number>();
  readonly #output: LiveOutput;
  #stopped = false;
  #unsubscribe: () => void;

  constructor(options: CommandExecutorOptions) {
    this.#options = options;
    this.#output = options.output ?? new LiveOutput();
    this.#unsubscribe = options.engine.onRunChanged((run) => this.#observe(run));
  }

  /** How many commands run now, and how many wait for a slot. */
  get load(): { running: number; queued: number } {
    return { running: this.#running.size, queued: this.#queue.length };
  }

  /** The process group id of each command running now, by command id (for tests and logs). */
  get groups(): ReadonlyMap<string, number> {
    return this.#pids;
  }

  /** Ends every running group and waits; their Runs stay as they are (a restart interrupts them). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe();
    this.#queue.length = 0;
    for (const { job } of this.#running.values()) job.controller.abort();
    await Promise.all([...this.#running.values()].map((entry) => entry.done));
  }

  #observe(run: RunView): void {
    const pending = run.pendingCommand;
    for (const { job } of this.#running.values()) {
      if (job.runId === run.runId && pending?.id !== job.commandId) job.controller.abort();
    }
    const stale = this.#queue.findIndex((job) => job.runId === run.runId && pending?.id !== job.commandId);
    if (stale >= 0) this.#queue.splice(stale, 1);
    if (
      this.#stopped || run.status !== "waiting" || !pending || pending.phase !== "available" ||
      this.#running.has(pending.id) || this.#queue.some((job) => job.commandId === pending.id)
    ) return;
    this.#queue.push({
      runId: run.runId,
      commandId: pending.id,
      site: { workflow: run.flowName, stage: run.cursor.stageName, step: run.cursor.stepName },
      controller: new AbortController(),
    });
    // After the change that published it has reached every listener.
    queueMicrotask(() => this.#pump());
  }

  #pump(): void {
    const max = this.#options.maxConcurrent ?? DEFAULT_MAX_COMMANDS;
    while (!this.#stopped && this.#running.size < max && this.#queue.length) {
      const job = this.#queue.shift()!;
      const ended = this.#options.work?.begin();
      const done = this.#drive(job)
        .catch((error) => this.#failed(job, error))
        .finally(() => {
          this.#running.delete(job.commandId);
          this.#pids.delete(job.commandId);
          ended?.();
          this.#pump();
        });
      this.#running.set(job.commandId, { job, done });
    }
  }

  async #drive(job: Job): Promise<void> {
    const { engine, projectDir, projectTree } = this.#options;
    const { runId, commandId, controller } = job;
    const spec = await engine.commandSpec(runId, commandId);
    const decision = decideCommand(this.#options.config(), { runId, ...job.site }, spec);
    if (decision.kind === "untrusted") {
      await engine.blockCommand({ runId, commandId, reason: decision.reason });
      return;
    }
    if (decision.kind === "unavailable") {
      await engine.failCommand({
        runId,
        commandId,
        code: "CONFIGURATION_REQUIRED",
        message: decision.reason,
      });
      return;
    }
    const folder = resolveCommandFolder(projectTree, spec.cwd);
    if (!folder.ok) {
      await engine.failCommand({
        runId,
        commandId,
        code: "COMMAND_UNAVAILABLE",
        message: `cwd ${folder.reason}`,
      });
      return;
    }
    if (controller.signal.aborted) return;
    await engine.startCommand({ runId, commandId, argv: decision.argv, cwd: spec.cwd ?? "." });
    // Served until the Run has recorded how the command ended, so a reader never finds neither.
    const live = this.#output.begin(runId, commandId, decision.argv, this.#options.tailBytes);
    try {
      let recorded: Promise<GroupRecord | undefined> | undefined;
      const end = await runProcessGroup({
        argv: decision.argv,
        cwd: join(projectDir, ...folder.segments),
        env: this.#environment(spec.env),
        timeoutMs: spec.timeoutSeconds * 1000,
        signal: controller.signal,
        graceMs: this.#options.graceMs ?? 2000,
        output: live,
        onOutput: live.grew,
        onSpawn: (pid, tag) => {
          this.#pids.set(commandId, pid);
          recorded = this.#record(runId, pid, tag);
        },
      });
      // The whole group has been ended: there is nothing left for a later start to end.
      await this.#forget(runId, await recorded);
      if (end.kind === "aborted") return;
      if (end.kind === "not_started") {
        await engine.failCommand({ runId, commandId, code: "COMMAND_UNAVAILABLE", message: end.reason });
        return;
      }
      this.#options.log({
        event: "command.ended",
        runId,
        commandId,
        exitCode: end.result.exitCode,
        signal: end.result.signal,
        timedOut: end.result.timedOut,
        ms: end.result.durationMs,
      });
      await engine.completeCommand({ runId, commandId, result: end.result });
    } finally {
      this.#output.end(runId, commandId);
    }
  }

  /** Records the group; a record that cannot be written is logged, and the command runs all the same. */
  async #record(runId: string, pid: number, tag: string): Promise<GroupRecord | undefined> {
    try {
      return await this.#options.ledger?.record(pid, tag);
    } catch (error) {
      this.#options.log({ event: "command.group_record_failed", runId, ...errorKind(error) });
      return undefined;
    }
  }

  async #forget(runId: string, record: GroupRecord | undefined): Promise<void> {
    if (!record) return;
    try {
      await this.#options.ledger?.forget(record);
    } catch (error) {
      this.#options.log({ event: "command.group_record_failed", runId, ...errorKind(error) });
    }
  }

  #environment(names: readonly string[]): Record<string, string> {
    const env: Record<string, string> = {};
    for (const name of [...BASE_ENV, ...names]) {
      const value = this.#options.env(name);
      if (value !== undefined) env[name] = value;
    }
    return env;
  }

  /**
   * A Run cancelled or moved on meanwhile refuses the report: nothing is lost. One that still waits on this
   * command would wait for good, since nothing reports it again: it fails, classified, so that its person can
   * resume it (`weft retry`).
   */
  async #failed(job: Job, error: unknown): Promise<void> {
    const { engine, log } = this.#options;
    if (!(error instanceof WeftError && error.code === "CONFLICT")) {
      log({ event: "command.executor_error", runId: job.runId, ...errorKind(error) });
    }
    if (this.#stopped || job.controller.signal.aborted) return;
    try {
      if ((await engine.getRun(job.runId)).pendingCommand?.id !== job.commandId) return;
      const code = error instanceof WeftError ? error.code : "INTERNAL";
      await engine.failCommand({
        runId: job.runId,
        commandId: job.commandId,
        code: "COMMAND_UNAVAILABLE",
        message: `the command step could not be carried out (${code}); resume with weft retry RUN`,
      });
    } catch (again) {
      log({ event: "command.executor_error", runId: job.runId, ...errorKind(again) });
    }
  }
}
