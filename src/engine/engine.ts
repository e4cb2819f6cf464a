/**
 * The engine: the one entry the MCP layer uses. It knows nothing of HTTP or MCP; every method that changes
 * state does so in one SQLite transaction committed before it returns.
 *
 * It is longer than our other files on purpose: it is the engine's whole public surface, one short method per
 * operation the tools offer, so a reader sees in one place everything a client can do to a Run. What each
 * operation means lives elsewhere: transitions in `run_driver.ts`, versions in `workflow/versions.ts`,
 * storage behind `storage.ts`, notifications in `change_feed.ts`.
 *
 * @module
 */
import { conflict, errorKind, invalid, notFound, WeftError } from "../errors.ts";
import { type ModelCallSettings, modelCallSettings, type ModelRoles, NO_MODELS } from "./model_roles.ts";
import { type AgentStep, buildAgentTask, buildRunContext, readSkillAsset } from "./agent_task.ts";
import { executeTool } from "./tool_kinds.ts";
import { checkIntent, dataLimits, jsonLargerThan } from "./data_limits.ts";
import { currentStep, RunDriver } from "./run_driver.ts";
import { ChangeFeed, type ChangeListener, commitChanges } from "./change_feed.ts";
import { committedMarkdown } from "./markdown_fields.ts";
import { type NewRunEvent, newRunState, type RunState, toRunView } from "./run_state.ts";
import type { ArtifactQuery, Storage } from "./storage.ts";
import type {
  AgentAssetView,
  AgentTaskDefinition,
  ArtifactView,
  EngineStats,
  PendingActionView,
  RecordView,
  RunEventView,
  RunStatus,
  RunView,
  Source,
  WorkflowView,
} from "./views.ts";
import { RUN_STATUSES } from "./views.ts";
import type { LoadedWorkflow } from "./workflow/loader.ts";
import { readinessBlock, WorkflowRegistry } from "./workflow/registry.ts";
import type { WorkflowSource } from "./workflow/source.ts";
import { WorkflowVersions } from "./workflow/versions.ts";

/** Options of {@linkcode Engine.open}. */
export interface EngineOptions {
  projectDir: string;
  /** Where Runs, Artifacts and Records are kept; the engine closes it when it closes. */
  storage: Storage;
  now?: () => Date;
  log?: (event: Record<string, unknown>) => void;
  /** The workflows built into the program (the composition root passes `src/workflows/`'s). */
  embedded: WorkflowSource[];
  /** Whether the service's model roles can run; without it, internal endpoints cannot run agent steps. */
  models?: ModelRoles;
}

/** How an agent call may be failed: by its agent, or by the service's model executor with a classified code. */
export type AgentCallFailureCode =
  | "AGENT_CALL_FAILED"
  | "AGENT_OUTPUT_INVALID"
  | "BUDGET_EXCEEDED"
  | "MODEL_UNAVAILABLE"
  | "MODEL_REQUEST_FAILED"
  | "CONFIGURATION_REQUIRED";

/** Timeline entries the service's model executor adds while it works on an agent call. */
export type AgentCallNote = "model_turn" | "model_tool_call";

/** What a change to a Run expects to be pending; anything else is a stale request (`CONFLICT`). */
type Expectation = { actionId: string } | { callId: string };

/** What one committed transaction did to a Run: its state afterwards and the timeline events it added. */
interface SavedRun {
  view: RunView;
  events: readonly NewRunEvent[];
}

/** The workflow engine of one project. */
export class Engine {
  readonly #storage: Storage;
  readonly #registry: WorkflowRegistry;
  readonly #versions: WorkflowVersions;
  readonly #projectDir: string;
  readonly #now: () => Date;
  readonly #log: (event: Record<string, unknown>) => void;
  readonly #changes: ChangeFeed;
  readonly #models: ModelRoles;

  private constructor(options: EngineOptions) {
    this.#storage = options.storage;
    // Resolved once: file reads compare what they opened with paths under this link-free root.
    this.#projectDir = Deno.realPathSync(options.projectDir);
    this.#now = options.now ?? (() => new Date());
    this.#log = options.log ?? (() => {});
    this.#changes = new ChangeFeed(this.#log);
    this.#models = options.models ?? NO_MODELS;
    this.#registry = new WorkflowRegistry(options.embedded, this.#projectDir);
    this.#versions = new WorkflowVersions(this.#registry, options.storage.definitions);
  }

  /** Opens the store, loads the workflows and applies the restart rules (docs/reference.md, "Durability and restart"). */
  static open(options: EngineOptions): Engine {
    try {
      const engine = new Engine(options);
      engine.#pinUnversionedRuns();
      engine.#interruptActiveCalls();
      return engine;
    } catch (error) {
      options.storage.close();
      throw error;
    }
  }

  /** Closes the storage. */
  close(): void {
    this.#storage.close();
  }

  /**
   * Every workflow with availability, readiness as seen from `source`, its current version and how many
   * active Runs another version drives; picks up edited project ones.
   */
  listWorkflows(source: Source): WorkflowView[] {
    this.#registry.refresh();
    return this.#versions.describe(
      this.#registry.views(source, this.#models),
      this.#storage.runs.activeVersions(),
    );
  }

  /** Starts a Run of `flowName` for `intent`; not idempotent. */
  flow(input: { flowName: string; intent: string; source: Source }): RunView {
    checkIntent(input.intent);
    this.#registry.refresh();
    const entry = this.#registry.find(input.flowName);
    if (!entry) throw notFound(`no workflow named "${input.flowName}"`);
    if (!entry.ok) throw invalid(`workflow "${input.flowName}" is unavailable: ${entry.reason}`);
    const workflow = entry.workflow;
    const blocked = readinessBlock(workflow, input.source, this.#models);
    if (blocked) throw new WeftError("CONFIGURATION_REQUIRED", `workflow "${input.flowName}": ${blocked}`);
    const run = newRunState(workflow, input.intent, input.source, this.#timestamp());
    const saved = this.#storage.transaction(() => {
      if (workflow.manifest.exclusive && this.#storage.runs.hasActive(run.flowName)) {
        throw conflict(`workflow "${run.flowName}" is exclusive and already has an active Run`);
      }
      run.version = this.#versions.pin(workflow, run.createdAt);
      this.#storage.runs.insert(run);
      const driver = new RunDriver(() => workflow, run, run.createdAt, this.#storage.artifacts);
      driver.start(input.source);
      return this.#save(driver);
    });
    return this.#publish(saved, true);
  }

  /** One Run; `NOT_FOUND` when unknown. */
  getRun(runId: string): RunView {
    return toRunView(this.#load(runId));
  }

  /** A Run's timeline, oldest first. */
  getRunTimeline(runId: string): RunEventView[] {
    this.#load(runId);
    return this.#storage.runs.timeline(runId);
  }

  /** A page of Runs, newest first. */
  listRuns(q: { flowName?: string; status?: RunStatus; limit?: number; cursor?: string }): {
    runs: RunView[];
    nextCursor?: string;
  } {
    const page = this.#storage.runs.list(q);
    return { runs: page.runs.map(toRunView), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  }

  /** Answers a pending human action; the first valid answer wins. */
  answerAsk(input: { runId: string; actionId: string; answer: unknown; source: Source }): RunView {
    return this.#mutate(input.runId, { actionId: input.actionId }, (driver) => {
      driver.answer(input.source, input.answer);
    });
  }

  /** The pending action `actionId` of a Run (for `interact`); `CONFLICT` when it is not pending. */
  pendingAction(runId: string, actionId: string): { run: RunView; action: PendingActionView } {
    const run = this.#load(runId);
    this.#expect(run, { actionId });
    return { run: toRunView(run), action: run.pendingAction! };
  }

  /** Cancels an active Run; `CONFLICT` when it has already ended. Agent-call listeners are notified. */
  cancelRun(runId: string, source: Source): RunView {
    return this.#mutate(runId, null, (driver) => driver.cancel(source));
  }

  /**
   * Moves a waiting Run to the current version of its workflow, when it fits there: its stage and step
   * exist, its state matches the stage's new schema and what it waits for still makes sense. Otherwise
   * `CONFLICT` lists what does not fit, and the Run goes on under its own version.
   */
  moveRun(runId: string, source: Source): RunView {
    this.#registry.refresh();
    const saved = this.#storage.transaction(() => {
      const run = this.#load(runId);
      const at = this.#timestamp();
      const moved = this.#versions.moveToCurrent(run, at);
      if (!moved) return undefined;
      run.updatedAt = at;
      const { stageName, stepName } = run;
      const events = [{ type: "run_moved", at, stageName, stepName, source, ...moved }];
      this.#storage.runs.update(run);
      this.#storage.runs.appendEvents(runId, events);
      return { view: toRunView(run), events };
    });
    return saved ? this.#publish(saved, false) : this.getRun(runId);
  }

  /** One Record, or null. */
  getRecord(recordId: string): RecordView | null {
    return this.#storage.artifacts.findRecord(recordId);
  }

  /** One Artifact with its data, at its current or an earlier revision, or null. */
  getArtifact(q: ArtifactQuery, revision?: number): ArtifactView | null {
    const artifact = this.#storage.artifacts.findArtifact(q, revision);
    if (!artifact) return null;
    const markdown = this.#committedMarkdown(artifact);
    return markdown.length ? { ...artifact, markdown } : artifact;
  }

  /** Which strings of the Artifact hold Markdown, by the definition of the Run that committed it. */
  #committedMarkdown(artifact: ArtifactView): string[] {
    const run = this.#storage.runs.find(artifact.runId);
    if (!run?.version) return [];
    try {
      const stage = this.#versions.resolve(run.flowName, run.version).manifest.stages[artifact.stageName];
      return stage ? committedMarkdown(stage, artifact.data) : [];
    } catch {
      // A definition no longer stored: the data is shown as text, as ever.
      return [];
    }
  }

  /** A page of Artifacts (metadata only). */
  listArtifacts(q: { flowName?: string; stageName?: string; limit?: number; cursor?: string }): {
    artifacts: ArtifactView[];
    nextCursor?: string;
  } {
    const page = this.#storage.artifacts.list(q);
    return { artifacts: page.artifacts, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  }

  /** Counts for the `status` tool. */
  stats(): EngineStats {
    const counts = this.#storage.runs.countByStatus();
    const views = this.#registry.views("agent_ide", this.#models);
    return {
      runs: Object.fromEntries(
        RUN_STATUSES.map((status) => [status, counts[status] ?? 0]),
      ) as EngineStats["runs"],
      ...this.#storage.artifacts.counts(),
      workflows: {
        available: views.filter((view) => view.available).length,
        unavailable: views.filter((view) => !view.available).length,
      },
      storage: { kind: "sqlite", journalMode: this.#storage.journalMode() },
    };
  }

  /** The task of the pending agent call `callId`. */
  agentTask(runId: string, callId: string): AgentTaskDefinition {
    const { run, workflow, step } = this.#agentCall(runId, callId);
    return buildAgentTask(run, workflow, step, callId);
  }

  /** Marks the pending agent call as claimed (persisted, so a restart interrupts it). */
  markAgentCallClaimed(runId: string, callId: string): RunView {
    return this.#mutate(runId, { callId }, (driver) => driver.claimAgentCall());
  }

  /** Runs one tool the agent step declares, with validated input and output. */
  runAgentTool(runId: string, callId: string, toolId: string, input: unknown): Promise<unknown> {
    try {
      const { run, step } = this.#agentCall(runId, callId);
      const tool = step.tools?.find((candidate) => candidate.id === toolId);
      if (!tool) throw invalid(`tool "${toolId}" is not declared by this agent step`);
      return executeTool(tool, input, {
        projectRoot: this.#projectDir,
        runContext: () => buildRunContext(this.#load(runId), this.#storage.artifacts),
        submitState: (target, value) =>
          void this.#mutate(run.runId, { callId }, (driver) => driver.submitState(toolId, target, value)),
      }).catch((error) => this.#toolFailure(error, runId, toolId));
    } catch (error) {
      return this.#toolFailure(error, runId, toolId);
    }
  }

  #toolFailure(error: unknown, runId: string, toolId: string): Promise<never> {
    if (error instanceof WeftError) return Promise.reject(error);
    this.#log({ event: "agent_tool_failed", runId, toolId, ...errorKind(error) });
    return Promise.reject(new WeftError("TOOL_FAILED", `tool "${toolId}" failed`, { cause: error }));
  }

  /** Reads one declared skill asset of the pending agent call. */
  readAgentAsset(runId: string, callId: string, assetId: string): AgentAssetView {
    const { workflow, step } = this.#agentCall(runId, callId);
    return readSkillAsset(workflow, step, assetId, (path) => this.#versions.fileBytes(workflow, path));
  }

  /** Completes the pending agent call with its result and continues the Run until it waits or ends. */
  completeAgentCall(runId: string, callId: string, result: unknown): RunView {
    return this.#mutate(runId, { callId }, (driver) => {
      const { resultBytes } = dataLimits(driver.workflow.manifest);
      const size = jsonLargerThan(result, resultBytes);
      if (size !== false) {
        throw invalid(
          `the result takes ${size} bytes, more than this workflow's limit of ${resultBytes} (limits.resultBytes)`,
        );
      }
      driver.completeAgentCall(result);
    });
  }

  /**
   * Fails the Run of the pending agent call with the agent's message, keeping earlier effects. The service's
   * model executor passes the classified code of what went wrong instead of `AGENT_CALL_FAILED`.
   */
  failAgentCall(
    runId: string,
    callId: string,
    message: string,
    code: AgentCallFailureCode = "AGENT_CALL_FAILED",
  ): RunView {
    if (typeof message !== "string" || !message.trim()) throw invalid("message must not be blank");
    return this.#mutate(runId, { callId }, (driver) => driver.failAgentCall(message, code));
  }

  /** Which model role runs the pending agent call, and its budgets (step, then workflow, then defaults). */
  agentCallModel(runId: string, callId: string): ModelCallSettings {
    const { workflow, step } = this.#agentCall(runId, callId);
    return modelCallSettings(workflow.manifest, step);
  }

  /** Adds what the service's model did (a turn, a tool call) to the timeline of the pending agent call. */
  noteAgentCall(
    runId: string,
    callId: string,
    type: AgentCallNote,
    fields: Record<string, unknown>,
  ): RunView {
    return this.#mutate(runId, { callId }, (driver) => driver.record(type, { callId, ...fields }));
  }

  /**
   * A person's decision to resume a Run whose agent call stopped (the service restarted, or the model server
   * did not answer): the Run waits again at the same step with a new agent call id, for the same executor.
   * Receipts of the old attempt are gone with it; nothing is replayed.
   */
  retryRun(runId: string, source: Source): RunView {
    return this.#mutate(runId, null, (driver) => driver.retry(source));
  }

  /** Subscribes to every committed change of any Run; returns the unsubscribe function. */
  onRunChanged(listener: (run: RunView) => void): () => void {
    return this.#changes.listen((change) => {
      if (change.kind === "run") listener(change.run);
    });
  }

  /** Subscribes to every committed change of Runs and Artifacts, in commit order; returns the unsubscribe. */
  onChange(listener: ChangeListener): () => void {
    return this.#changes.listen(listener);
  }

  /** How many change listeners are registered, so leaks show. */
  get changeListeners(): number {
    return this.#changes.size;
  }

  #timestamp(): string {
    return this.#now().toISOString();
  }

  #load(runId: string): RunState {
    const run = typeof runId === "string" ? this.#storage.runs.find(runId) : undefined;
    if (!run) throw notFound(`no Run with id "${runId}"`);
    return run;
  }

  #expect(run: RunState, expectation: Expectation): void {
    if ("actionId" in expectation && run.pendingAction?.id !== expectation.actionId) {
      throw conflict(
        `action "${expectation.actionId}" is not pending on Run ${run.runId} (answered, stale or ended)`,
      );
    }
    if ("callId" in expectation && run.pendingAgentCall?.id !== expectation.callId) {
      throw conflict(
        `agent call "${expectation.callId}" is not pending on Run ${run.runId} (finished, stale or ended)`,
      );
    }
  }

  /** The definition a Run is driven by: always the version it started with (or was moved to). */
  #workflowOf(run: RunState): LoadedWorkflow {
    if (run.version) return this.#versions.resolve(run.flowName, run.version);
    // Stored by an older weft and not pinned when the store was opened: pinned to the current definition now.
    const workflow = this.#registry.loaded(run.flowName);
    if (!workflow) throw conflict(`workflow "${run.flowName}" is currently unavailable; fix it and reload`);
    run.version = this.#versions.pin(workflow, this.#timestamp());
    return workflow;
  }

  #agentCall(
    runId: string,
    callId: string,
  ): { run: RunState; workflow: LoadedWorkflow; step: AgentStep } {
    const run = this.#load(runId);
    this.#expect(run, { callId });
    const workflow = this.#workflowOf(run);
    const step = currentStep(workflow, run);
    if (step.kind !== "agent") throw conflict(`Run ${runId} is not at an agent step`);
    return { run, workflow, step };
  }

  /**
   * Loads a Run, checks what must be pending (nothing when `expectation` is null), applies one transition of
   * its driver and saves, all in one transaction.
   */
  #mutate(runId: string, expectation: Expectation | null, work: (driver: RunDriver) => void): RunView {
    const saved = this.#storage.transaction(() => {
      const run = this.#load(runId);
      if (expectation) this.#expect(run, expectation);
      const driver = new RunDriver(
        () => this.#workflowOf(run),
        run,
        this.#timestamp(),
        this.#storage.artifacts,
      );
      work(driver);
      return this.#save(driver);
    });
    return this.#publish(saved, false);
  }

  #save(driver: RunDriver): SavedRun {
    this.#storage.runs.update(driver.run);
    this.#storage.runs.appendEvents(driver.run.runId, driver.events);
    return { view: toRunView(driver.run), events: driver.events };
  }

  /**
   * Tells the change feed what one committed transaction did: the Artifacts its stage commits wrote, then
   * the Run. Every change of a Run passes here after its commit, whichever operation made it.
   */
  #publish(saved: SavedRun, created: boolean): RunView {
    const changes = commitChanges(saved.view, saved.events, created);
    this.#changes.publish(changes);
    return saved.view;
  }

  /** Pins the Runs an older weft stored without a version (see {@linkcode WorkflowVersions.pinUnversioned}). */
  #pinUnversionedRuns(): void {
    const pinned = this.#storage.transaction(() =>
      this.#versions.pinUnversioned(this.#storage.runs, this.#timestamp())
    );
    if (pinned) this.#log({ event: "runs_pinned", count: pinned });
  }

  /** Agent calls and executing steps do not survive a restart; human waits do. */
  #interruptActiveCalls(): void {
    const count = this.#storage.transaction(() => {
      const at = this.#timestamp();
      const runs = this.#storage.runs.listInterruptible();
      for (const run of runs) {
        const driver = new RunDriver(() => this.#workflowOf(run), run, at, this.#storage.artifacts);
        driver.interrupt();
        this.#save(driver);
      }
      return runs.length;
    });
    if (count) this.#log({ event: "runs_interrupted", count });
  }
}
