/**
 * The engine: the one entry the MCP layer uses. It knows nothing of HTTP, MCP or SQL. Every operation is one
 * unit of work of the storage port: an operation that changes a Run loads it, lets the state machine decide
 * (`run_driver.ts`), applies the decision (the Run, its timeline events, its stage commits) in one
 * transaction committed before the promise resolves, and then tells the change feed.
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
import { checkAnswerer } from "./answers.ts";
import { type AgentStep, buildAgentTask, buildRunContext, readSkillAsset } from "./agent_task.ts";
import { executeTool } from "./tool_kinds.ts";
import { checkIntent, dataLimits, jsonLargerThan } from "./data_limits.ts";
import { currentStep, RunDriver } from "./run_driver.ts";
import {
  type CommittedPublication,
  committedPublication,
  driftOf,
  type ProjectFiles,
  publicationOf,
  writePublication,
} from "./publication.ts";
import { type CommandResult, type CommandSpec, commandSpec } from "./command_step.ts";
import { ChangeFeed, type ChangeListener, commitChanges, type EngineChange } from "./change_feed.ts";
import { committedMarkdown } from "./markdown_fields.ts";
import { type NewRunEvent, newRunState, type RunState, toRunView } from "./run_state.ts";
import type { ArtifactQuery, Storage, StorageUnit } from "./storage.ts";
import type {
  AgentAssetView,
  AgentCallPhase,
  AgentExecutor,
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
import type { StepDef } from "./workflow/manifest.ts";
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
  /** The project's files, where stages that declare `publish` write their Artifacts. */
  projectFiles: ProjectFiles;
  /** What `{publishFolder}` stands for in publish paths (weft.json's `publishFolder`); default `docs/weft`. */
  publishFolder?: string;
}

/** How an agent call may be failed: by its agent, or by the service's model executor with a classified code. */
export type AgentCallFailureCode =
  | "AGENT_CALL_FAILED"
  | "AGENT_OUTPUT_INVALID"
  | "BUDGET_EXCEEDED"
  | "MODEL_UNAVAILABLE"
  | "MODEL_REQUEST_FAILED"
  | "CONFIGURATION_REQUIRED"
  | "NOT_TRUSTED";

/** Timeline entries the service's model executor adds while it works on an agent call. */
export type AgentCallNote = "model_turn" | "model_tool_call";

/** How a command step may fail to start, as the service's command executor classifies it. */
export type CommandFailureCode = "COMMAND_UNAVAILABLE" | "CONFIGURATION_REQUIRED";

/** What a change to a Run expects to be pending; anything else is a stale request (`CONFLICT`). */
type Expectation = { actionId: string } | { callId: string } | { commandId: string };

/** What one committed transaction did to a Run: its state afterwards and the timeline events it added. */
interface SavedRun {
  view: RunView;
  events: readonly NewRunEvent[];
  /** The committed Artifacts its stages publish, to be written once the transaction has committed. */
  publications?: CommittedPublication[];
}

/** A Run's definition as the unit of work could resolve it, or why it could not (cancel needs none). */
type Resolved = { workflow: LoadedWorkflow } | { error: unknown };

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
  readonly #projectFiles: ProjectFiles;
  readonly #publishFolder: string | undefined;

  private constructor(options: EngineOptions) {
    this.#storage = options.storage;
    // Resolved once: file reads compare what they opened with paths under this link-free root.
    this.#projectDir = Deno.realPathSync(options.projectDir);
    this.#now = options.now ?? (() => new Date());
    this.#log = options.log ?? (() => {});
    this.#changes = new ChangeFeed(this.#log);
    this.#models = options.models ?? NO_MODELS;
    this.#projectFiles = options.projectFiles;
    this.#publishFolder = options.publishFolder;
    this.#registry = new WorkflowRegistry(options.embedded, this.#projectDir);
    this.#versions = new WorkflowVersions(this.#registry);
  }

  /** Opens the store, loads the workflows and applies the restart rules (docs/reference.md, "Durability and restart"). */
  static async open(options: EngineOptions): Promise<Engine> {
    try {
      const engine = new Engine(options);
      await engine.#pinUnversionedRuns();
      await engine.#interruptActiveCalls();
      return engine;
    } catch (error) {
      await options.storage.close();
      throw error;
    }
  }

  /** Closes the storage. */
  close(): Promise<void> {
    return this.#storage.close();
  }

  /**
   * Every workflow with availability, readiness as seen from `source`, its current version and how many
   * active Runs another version drives; picks up edited project ones.
   */
  async listWorkflows(source: Source): Promise<WorkflowView[]> {
    this.#registry.refresh();
    const active = await this.#storage.read((unit) => unit.runs.activeVersions());
    return this.#versions.describe(this.#registry.views(source, this.#models), active);
  }

  /** Starts a Run of `flowName` for `intent`; not idempotent. */
  async flow(input: { flowName: string; intent: string; source: Source }): Promise<RunView> {
    checkIntent(input.intent);
    this.#registry.refresh();
    const entry = this.#registry.find(input.flowName);
    if (!entry) throw notFound(`no workflow named "${input.flowName}"`);
    if (!entry.ok) throw invalid(`workflow "${input.flowName}" is unavailable: ${entry.reason}`);
    const workflow = entry.workflow;
    const blocked = readinessBlock(workflow, input.source, this.#models);
    if (blocked) throw new WeftError(blocked.code, `workflow "${input.flowName}": ${blocked.reason}`);
    const run = newRunState(workflow, input.intent, input.source, this.#timestamp());
    const saved = await this.#storage.transaction(async (unit) => {
      if (workflow.manifest.exclusive && await unit.runs.hasActive(run.flowName)) {
        throw conflict(`workflow "${run.flowName}" is exclusive and already has an active Run`);
      }
      run.version = await this.#versions.pin(unit.definitions, workflow, run.createdAt);
      const driver = new RunDriver(() => workflow, run, run.createdAt, this.#publishFolder);
      driver.start(input.source);
      return await this.#apply(unit, driver, true);
    });
    const view = this.#publish(saved, true);
    await this.#writePublications(saved);
    return view;
  }

  /** One Run; `NOT_FOUND` when unknown. */
  async getRun(runId: string): Promise<RunView> {
    return toRunView(await this.#storage.read((unit) => this.#load(unit, runId)));
  }

  /** A Run's timeline, oldest first. */
  getRunTimeline(runId: string): Promise<RunEventView[]> {
    return this.#storage.read(async (unit) => {
      await this.#load(unit, runId);
      return await unit.runs.timeline(runId);
    });
  }

  /** A page of Runs, newest first. */
  async listRuns(q: { flowName?: string; status?: RunStatus; limit?: number; cursor?: string }): Promise<{
    runs: RunView[];
    nextCursor?: string;
  }> {
    const page = await this.#storage.read((unit) => unit.runs.list(q));
    return { runs: page.runs.map(toRunView), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  }

  /**
   * Answers a pending human action; the first valid answer wins. `NOT_ALLOWED` when `source` may not answer
   * this Run (see {@linkcode checkAnswerer}): nothing is consumed and the Run keeps waiting.
   */
  answerAsk(input: { runId: string; actionId: string; answer: unknown; source: Source }): Promise<RunView> {
    return this.#change(input.runId, { actionId: input.actionId }, (driver) => {
      checkAnswerer(driver.run, input.source);
      driver.answer(input.source, input.answer);
    });
  }

  /**
   * The pending action `actionId` of a Run, for `source` to show its person (`interact`); `CONFLICT` when it
   * is not pending, `NOT_ALLOWED` when `source` may not answer it.
   */
  pendingAction(
    runId: string,
    actionId: string,
    source: Source,
  ): Promise<{ run: RunView; action: PendingActionView }> {
    return this.#storage.read(async (unit) => {
      const run = await this.#load(unit, runId);
      await this.#expect(unit, run, { actionId });
      checkAnswerer(run, source);
      return { run: toRunView(run), action: run.pendingAction! };
    });
  }

  /** Cancels an active Run; `CONFLICT` when it has already ended. Agent-call listeners are notified. */
  cancelRun(runId: string, source: Source): Promise<RunView> {
    return this.#change(runId, null, (driver) => driver.cancel(source));
  }

  /**
   * Moves a waiting Run to the current version of its workflow, when it fits there: its stage and step
   * exist, its state matches the stage's new schema and what it waits for still makes sense. Otherwise
   * `CONFLICT` lists what does not fit, and the Run goes on under its own version.
   */
  async moveRun(runId: string, source: Source): Promise<RunView> {
    this.#registry.refresh();
    const saved = await this.#storage.transaction(async (unit) => {
      const run = await this.#load(unit, runId);
      const at = this.#timestamp();
      const moved = await this.#versions.moveToCurrent(unit.definitions, run, at);
      if (!moved) return toRunView(run);
      run.updatedAt = at;
      const { stageName, stepName } = run;
      const events = [{ type: "run_moved", at, stageName, stepName, source, ...moved }];
      await unit.runs.update(run);
      await unit.runs.appendEvents(runId, events);
      return { view: toRunView(run), events };
    });
    return "events" in saved ? this.#publish(saved, false) : saved;
  }

  /** One Record, or null. */
  getRecord(recordId: string): Promise<RecordView | null> {
    return this.#storage.read((unit) => unit.artifacts.findRecord(recordId));
  }

  /** One Artifact with its data, at its current or an earlier revision, or null. */
  getArtifact(q: ArtifactQuery, revision?: number): Promise<ArtifactView | null> {
    return this.#storage.read(async (unit) => {
      const artifact = await unit.artifacts.findArtifact(q, revision);
      if (!artifact) return null;
      const markdown = await this.#committedMarkdown(unit, artifact);
      const publication = publicationOf(artifact, await unit.runs.timeline(artifact.runId));
      return {
        ...artifact,
        ...(markdown.length ? { markdown } : {}),
        ...(publication ? { publication } : {}),
      };
    });
  }

  /** Which strings of the Artifact hold Markdown, by the definition of the Run that committed it. */
  async #committedMarkdown(unit: StorageUnit, artifact: ArtifactView): Promise<string[]> {
    const run = await unit.runs.find(artifact.runId);
    if (!run?.version) return [];
    try {
      const workflow = await this.#versions.resolve(unit.definitions, run.flowName, run.version);
      const stage = workflow.manifest.stages[artifact.stageName];
      return stage ? committedMarkdown(stage, artifact.data) : [];
    } catch {
      // A definition no longer stored: the data is shown as text, as ever.
      return [];
    }
  }

  /** A page of Artifacts (metadata only). */
  async listArtifacts(
    q: { flowName?: string; stageName?: string; limit?: number; cursor?: string },
  ): Promise<{
    artifacts: ArtifactView[];
    nextCursor?: string;
  }> {
    const page = await this.#storage.read((unit) => unit.artifacts.list(q));
    return { artifacts: page.artifacts, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  }

  /** Counts for the `status` tool; workflow readiness is counted as an IDE sees it. */
  async stats(): Promise<EngineStats> {
    const [counts, stored, written] = await this.#storage.read(async (unit) =>
      [
        await unit.runs.countByStatus(),
        await unit.artifacts.counts(),
        await unit.publications.list(),
      ] as const
    );
    const views = this.#registry.views("agent_ide", this.#models);
    return {
      runs: Object.fromEntries(
        RUN_STATUSES.map((status) => [status, counts[status] ?? 0]),
      ) as EngineStats["runs"],
      ...stored,
      workflows: {
        available: views.filter((view) => view.available).length,
        unavailable: views.filter((view) => !view.available).length,
      },
      storage: { kind: this.#storage.kind, journalMode: this.#storage.journalMode },
      publications: { files: written.length, changed: await driftOf(this.#projectFiles, written) },
    };
  }

  /** The pending agent call `callId`: its task, and whether it is claimed yet. */
  async agentCall(
    runId: string,
    callId: string,
  ): Promise<{ task: AgentTaskDefinition; phase: AgentCallPhase }> {
    const { run, workflow, step } = await this.#storage.read((unit) => this.#agentCall(unit, runId, callId));
    return { task: buildAgentTask(run, workflow, step, callId), phase: run.pendingAgentCall!.phase };
  }

  /**
   * Marks the pending agent call as claimed by `claimant` (persisted, so a restart interrupts it) and returns
   * its task; `CONFLICT` when the Run's agent steps are another executor's.
   */
  async claimAgentCall(
    runId: string,
    callId: string,
    claimant: AgentExecutor,
  ): Promise<{ task: AgentTaskDefinition; run: RunView }> {
    let task: AgentTaskDefinition | undefined;
    const run = await this.#change(runId, { callId }, (driver) => {
      const executor = driver.run.agentExecutor;
      if (executor !== claimant) {
        throw conflict(
          executor === "service"
            ? `Run ${runId} executes its agent steps with the service's model, not an MCP client`
            : `Run ${runId} waits for an IDE's agent; the service's model does not take its agent calls`,
        );
      }
      task = buildAgentTask(driver.run, driver.workflow, driver.step as AgentStep, callId);
      driver.claimAgentCall();
    });
    return { task: task!, run };
  }

  /** Runs one tool the agent step declares, with validated input and output. */
  async runAgentTool(runId: string, callId: string, toolId: string, input: unknown): Promise<unknown> {
    try {
      const { step } = await this.#storage.read((unit) => this.#agentCall(unit, runId, callId));
      const tool = step.tools?.find((candidate) => candidate.id === toolId);
      if (!tool) throw invalid(`tool "${toolId}" is not declared by this agent step`);
      return await executeTool(tool, input, {
        projectRoot: this.#projectDir,
        runContext: () =>
          this.#storage.read(async (unit) =>
            buildRunContext(await this.#load(unit, runId), await unit.artifacts.committedByRun(runId))
          ),
        submitState: async (target, value) => {
          await this.#change(runId, { callId }, (driver) => driver.submitState(toolId, target, value));
        },
      });
    } catch (error) {
      if (error instanceof WeftError) throw error;
      this.#log({ event: "agent_tool_failed", runId, toolId, ...errorKind(error) });
      throw new WeftError("TOOL_FAILED", `tool "${toolId}" failed`, { cause: error });
    }
  }

  /** Reads one declared skill asset of the pending agent call. */
  readAgentAsset(runId: string, callId: string, assetId: string): Promise<AgentAssetView> {
    return this.#storage.read(async (unit) => {
      const { workflow, step } = await this.#agentCall(unit, runId, callId);
      return await readSkillAsset(
        workflow,
        step,
        assetId,
        (path) => this.#versions.fileBytes(unit.definitions, workflow, path),
      );
    });
  }

  /** Completes the pending agent call with its result and continues the Run until it waits or ends. */
  completeAgentCall(runId: string, callId: string, result: unknown): Promise<RunView> {
    return this.#change(runId, { callId }, (driver) => {
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
  async failAgentCall(
    runId: string,
    callId: string,
    message: string,
    code: AgentCallFailureCode = "AGENT_CALL_FAILED",
  ): Promise<RunView> {
    if (typeof message !== "string" || !message.trim()) throw invalid("message must not be blank");
    return await this.#change(runId, { callId }, (driver) => driver.failAgentCall(message, code));
  }

  /** Which model role runs the pending agent call, and its budgets (step, then workflow, then defaults). */
  async agentCallModel(runId: string, callId: string): Promise<ModelCallSettings> {
    const { workflow, step } = await this.#storage.read((unit) => this.#agentCall(unit, runId, callId));
    return modelCallSettings(workflow.manifest, step);
  }

  /** Adds what the service's model did (a turn, a tool call) to the timeline of the pending agent call. */
  noteAgentCall(
    runId: string,
    callId: string,
    type: AgentCallNote,
    fields: Record<string, unknown>,
  ): Promise<RunView> {
    return this.#change(runId, { callId }, (driver) => driver.record(type, { callId, ...fields }));
  }

  /**
   * A person's decision to resume a Run whose agent call stopped (the service restarted, or the model server
   * did not answer): the Run waits again at the same step with a new agent call id, for the same executor.
   * Receipts of the old attempt are gone with it; nothing is replayed.
   */
  retryRun(runId: string, source: Source): Promise<RunView> {
    return this.#change(runId, null, (driver) => driver.retry(source));
  }

  /** The pending command `commandId` as the step of the Run's definition declares it. */
  commandSpec(runId: string, commandId: string): Promise<CommandSpec> {
    return this.#storage.read(async (unit) => {
      const { workflow, step } = await this.#pendingStep(unit, runId, { commandId }, "command");
      return commandSpec(step, workflow.origin);
    });
  }

  /** Marks the pending command as running `argv` in `cwd` (project-relative); a restart interrupts it. */
  startCommand(runId: string, commandId: string, argv: string[], cwd: string): Promise<RunView> {
    return this.#change(runId, { commandId }, (driver) => driver.startCommand(argv, cwd));
  }

  /** Leaves the Run waiting on its command, which the person has not trusted, with the reason. */
  blockCommand(runId: string, commandId: string, reason: string): Promise<RunView> {
    return this.#change(runId, { commandId }, (driver) => driver.blockCommand(reason));
  }

  /** Records how the pending command ended and continues by its outcome. */
  completeCommand(runId: string, commandId: string, result: CommandResult): Promise<RunView> {
    return this.#change(runId, { commandId }, (driver) => driver.completeCommand(result));
  }

  /** Fails the Run of a pending command that could not start. */
  failCommand(runId: string, commandId: string, code: CommandFailureCode, message: string): Promise<RunView> {
    return this.#change(runId, { commandId }, (driver) => driver.failCommand(code, message));
  }

  /** Subscribes to every committed change of any Run, with the types of the events it added; returns the unsubscribe. */
  onRunChanged(listener: (run: RunView, eventTypes: readonly string[]) => void): () => void {
    return this.#changes.listen((change) => {
      if (change.kind === "run") listener(change.run, change.eventTypes);
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

  async #load(unit: StorageUnit, runId: string): Promise<RunState> {
    const run = typeof runId === "string" ? await unit.runs.find(runId) : undefined;
    if (!run) throw notFound(`no Run with id "${runId}"`);
    return run;
  }

  /**
   * Checks that `run` waits on what the request names. A wrong agent call is told apart only on this failing
   * path, by the timeline: `NOT_FOUND` when the Run never started it, `CONFLICT` when it is no longer active.
   */
  async #expect(unit: StorageUnit, run: RunState, expectation: Expectation): Promise<void> {
    if ("actionId" in expectation && run.pendingAction?.id !== expectation.actionId) {
      throw conflict(
        `action "${expectation.actionId}" is not pending on Run ${run.runId} (answered, stale or ended)`,
      );
    }
    if ("commandId" in expectation) {
      if (run.pendingCommand?.id === expectation.commandId) return;
      throw conflict(
        `command ${expectation.commandId} of Run ${run.runId} is no longer pending (${run.status})`,
      );
    }
    if (!("callId" in expectation) || run.pendingAgentCall?.id === expectation.callId) return;
    const { callId } = expectation;
    const started = (await unit.runs.timeline(run.runId))
      .some((event) => event.type === "agent_call_started" && event.callId === callId);
    if (!started) {
      throw notFound(`Run ${run.runId} has no agent call ${callId}; get_run shows its pendingAgentCall`);
    }
    const now = run.pendingAgentCall ? `; its current agent call is ${run.pendingAgentCall.id}` : "";
    throw conflict(
      `agent call ${callId} of Run ${run.runId} is no longer active (the Run is ${run.status}${now})`,
    );
  }

  /**
   * The definition a Run is driven by: always the version it started with (or was moved to). A Run stored by
   * an older weft and not pinned when the store was opened is pinned to the current definition, but only by
   * a unit that may write (`pin`); one that only reads follows the current definition without pinning it.
   */
  async #workflowOf(unit: StorageUnit, run: RunState, pin: boolean): Promise<LoadedWorkflow> {
    if (run.version) return await this.#versions.resolve(unit.definitions, run.flowName, run.version);
    const workflow = this.#registry.loaded(run.flowName);
    if (!workflow) throw conflict(`workflow "${run.flowName}" is currently unavailable; fix it and reload`);
    if (pin) run.version = await this.#versions.pin(unit.definitions, workflow, this.#timestamp());
    return workflow;
  }

  #agentCall(
    unit: StorageUnit,
    runId: string,
    callId: string,
  ): Promise<{ run: RunState; workflow: LoadedWorkflow; step: AgentStep }> {
    return this.#pendingStep(unit, runId, { callId }, "agent");
  }

  /**
   * The Run, its definition and its current step, when the Run waits on what `expectation` names at a step
   * of `kind`; a read, so an unpinned Run is not pinned here.
   */
  async #pendingStep<K extends StepDef["kind"]>(
    unit: StorageUnit,
    runId: string,
    expectation: Expectation,
    kind: K,
  ): Promise<{ run: RunState; workflow: LoadedWorkflow; step: Extract<StepDef, { kind: K }> }> {
    const run = await this.#load(unit, runId);
    await this.#expect(unit, run, expectation);
    const workflow = await this.#workflowOf(unit, run, false);
    const step = currentStep(workflow, run);
    if (step.kind !== kind) {
      throw conflict(`Run ${runId} is not at ${kind === "agent" ? "an" : "a"} ${kind} step`);
    }
    return { run, workflow, step: step as Extract<StepDef, { kind: K }> };
  }

  /**
   * A driver for one change of `run`. Its definition is resolved first, since the driver decides
   * synchronously; a definition that cannot be had fails only the transitions that need it (cancel and
   * interrupt need none, so they work on any Run).
   */
  async #driver(unit: StorageUnit, run: RunState, at: string): Promise<RunDriver> {
    const resolved: Resolved = await this.#workflowOf(unit, run, true).then(
      (workflow) => ({ workflow }),
      (error) => ({ error }),
    );
    return new RunDriver(
      () => {
        if ("error" in resolved) throw resolved.error;
        return resolved.workflow;
      },
      run,
      at,
      this.#publishFolder,
    );
  }

  /**
   * Loads a Run, checks what must be pending (nothing when `expectation` is null), lets its driver decide one
   * transition and applies the decision, all in one transaction; then tells the change feed.
   */
  async #change(
    runId: string,
    expectation: Expectation | null,
    decide: (driver: RunDriver) => void,
  ): Promise<RunView> {
    const saved = await this.#storage.transaction(async (unit) => {
      const run = await this.#load(unit, runId);
      if (expectation) await this.#expect(unit, run, expectation);
      const driver = await this.#driver(unit, run, this.#timestamp());
      decide(driver);
      return await this.#apply(unit, driver, false);
    });
    const view = this.#publish(saved, false);
    await this.#writePublications(saved);
    return view;
  }

  /**
   * Applies what a driver decided, inside the caller's transaction: a new Run is inserted first (its stage
   * commits refer to it), each stage commit is stored and its timeline event completed with the Artifact id
   * and revision the store assigned, then the Run is saved and its events appended.
   */
  async #apply(unit: StorageUnit, driver: RunDriver, created: boolean): Promise<SavedRun> {
    const { run, events } = driver;
    if (created) await unit.runs.insert(run);
    const publications: CommittedPublication[] = [];
    for (const decided of driver.commits) {
      const { artifact } = await unit.artifacts.commit(decided.commit);
      Object.assign(decided.event, { artifactId: artifact.artifactId, revision: artifact.revision });
      if (decided.publication) publications.push(committedPublication(run, decided, artifact));
    }
    if (!created) await unit.runs.update(run);
    await unit.runs.appendEvents(run.runId, events);
    return { view: toRunView(run), events, ...(publications.length ? { publications } : {}) };
  }

  /**
   * Writes the files a committed transaction publishes, each in a transaction of its own that records the
   * outcome (`publication.ts`): the commit stands whatever happens here. Units never interleave, so two Runs
   * publishing one path take turns.
   */
  async #writePublications(saved: SavedRun): Promise<void> {
    if (!saved.publications) return;
    const runId = saved.view.runId;
    const events: NewRunEvent[] = [];
    for (const publication of saved.publications) {
      try {
        events.push(
          await this.#storage.transaction((unit) =>
            writePublication(unit, this.#projectFiles, publication, this.#timestamp(), this.#log)
          ),
        );
      } catch (error) {
        // The store failed to record it: the commit is kept, and the operation still answers with it.
        this.#log({ event: "publication_unrecorded", runId, ...errorKind(error) });
      }
    }
    if (!events.length) return;
    // The commit was told in its order already; this tells that the timeline grew, with the Run as it is now
    // (a change committed meanwhile has been told, and must not be followed by an older view).
    const now = toRunView(await this.#storage.read((unit) => this.#load(unit, runId)));
    // Each Artifact's subscribers hear again: its view now says where the revision was published, or why not.
    const artifacts: EngineChange[] = events.map((event) => ({
      kind: "artifact",
      artifactId: String(event.artifactId),
      flowName: now.flowName,
      stageName: String(event.stageName),
      revision: Number(event.revision),
      runId,
      created: false,
    }));
    this.#changes.publish([...artifacts, ...commitChanges(now, events, false)]);
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
  async #pinUnversionedRuns(): Promise<void> {
    const pinned = await this.#storage.transaction((unit) =>
      this.#versions.pinUnversioned(unit, this.#timestamp())
    );
    if (pinned) this.#log({ event: "runs_pinned", count: pinned });
  }

  /** Agent calls and executing steps do not survive a restart; human waits do. */
  async #interruptActiveCalls(): Promise<void> {
    const count = await this.#storage.transaction(async (unit) => {
      const at = this.#timestamp();
      const runs = await unit.runs.listInterruptible();
      for (const run of runs) {
        const driver = await this.#driver(unit, run, at);
        driver.interrupt();
        await this.#apply(unit, driver, false);
      }
      return runs.length;
    });
    if (count) this.#log({ event: "runs_interrupted", count });
  }
}
