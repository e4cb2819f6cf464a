/**
 * The engine: the one entry the MCP layer uses. It knows nothing of HTTP, MCP or SQL. Every operation is one
 * unit of work of the storage port: an operation that changes a Run loads it, lets the state machine decide
 * (`run_change.ts` and the transitions beside it), and `run_access.ts` applies the decision in one transaction
 * committed before the promise resolves, writes the files it publishes and tells the change feed.
 *
 * This class is the engine's whole public surface, one short method per operation the tools offer, so a
 * reader sees in one place everything a client can do to a Run. The operations on agent calls and commands
 * are delegated to `agent_call_operations.ts` and `command_operations.ts`; what each operation means lives
 * elsewhere: transitions in `run_change.ts`, `agent_call_transitions.ts` and `command_transitions.ts`,
 * versions in `workflow/versions.ts`, storage behind `storage.ts`, notifications in `change_feed.ts`.
 *
 * @module
 */
import { conflict, invalid, notFound, WeftError } from "../errors.ts";
import { type ModelCallSettings, type ModelRoles, NO_MODELS } from "./model_roles.ts";
import { answerChannel, checkAnswerer } from "./answers.ts";
import {
  AgentCallOperations,
  type ClaimAgentCallOptions,
  type CompleteAgentCallOptions,
  type FailAgentCallOptions,
  type NoteAgentCallOptions,
  type ReadAgentAssetOptions,
  type RunAgentToolOptions,
} from "./agent_call_operations.ts";
import { checkIntent } from "./data_limits.ts";
import { driftOf, publicationOf } from "./publication.ts";
import type { ProjectFiles } from "./project_files.ts";
import type { ProjectTree } from "./project_tree.ts";
import type { ProjectChanges } from "./project_changes.ts";
import type { CommandSpec } from "./command_step.ts";
import {
  type BlockCommandOptions,
  CommandOperations,
  type CompleteCommandOptions,
  type FailCommandOptions,
  type StartCommandOptions,
} from "./command_operations.ts";
import { ChangeFeed, type ChangeListener } from "./change_feed.ts";
import { committedMarkdown } from "./markdown_fields.ts";
import { RunAccess } from "./run_access.ts";
import { committedPointer, readEdit, revisionWorkflow } from "./revision.ts";
import { resolvePlanInput } from "./plan_input.ts";
import { newRunState, type RunState, toRunView } from "./run_state.ts";
import type { ArtifactQuery, PublicationRecord, Storage, StorageUnit } from "./storage.ts";
import { StoreWrites } from "./store_writes.ts";
import { deepFreeze } from "../lib/deep_freeze.ts";
import type { LoadedWorkflow } from "./workflow/loader.ts";
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
import { executorFor, readinessBlock, WorkflowRegistry } from "./workflow/registry.ts";
import type { WorkflowSource } from "./workflow/source.ts";
import { WorkflowVersions } from "./workflow/versions.ts";
import type { DeclaredEditStep } from "./workflow/trusted_steps.ts";

/** Options of {@linkcode Engine.open}. */
export interface EngineOptions {
  /** Where Runs, Artifacts and Records are kept; the engine closes it when it closes. */
  storage: Storage;
  now?: () => Date;
  log?: (event: Record<string, unknown>) => void;
  /** The workflows built into the program (the composition root passes `src/workflows/`'s). */
  embedded: WorkflowSource[];
  /** Whether the service's model roles can run; without it, internal endpoints cannot run agent steps. */
  models?: ModelRoles;
  /** The project's files: what agent tools list, read and edit, and where stages that `publish` write. */
  projectFiles: ProjectFiles;
  /** The project's folders as workflow loading reads them (`workflows/`, command and publish folders). */
  projectTree: ProjectTree;
  /** The project's files compared over time, for `changes` steps. */
  projectChanges: ProjectChanges;
  /**
   * Why the person does not trust the file edits a project workflow's step declares, as it declares them
   * (undefined: trusted). Without it, no project workflow's step may write a file.
   */
  editRefusal?: (site: DeclaredEditStep) => string | undefined;
  /** What `{publishFolder}` stands for in publish paths (weft.json's `publishFolder`); default `docs/weft`. */
  publishFolder?: string;
}

/** Options of {@linkcode Engine.startRun}. */
export interface StartRunOptions {
  flowName: string;
  intent: string;
  /** The endpoint the Run is started from. */
  source: Source;
  /** Who should execute its agent steps; the service's model gives way to the IDE's agent when none is configured. */
  agentExecutor: AgentExecutor;
}

/** How many Runs' views are kept between writes: more than the Runs an IDE or Studio reads at a time. */
const RUN_VIEWS_KEPT = 64;

/** The workflow engine of one project. */
export class Engine {
  readonly #storage: Storage;
  readonly #registry: WorkflowRegistry;
  readonly #versions: WorkflowVersions;
  readonly #log: (event: Record<string, unknown>) => void;
  readonly #changes: ChangeFeed;
  readonly #models: ModelRoles;
  readonly #projectFiles: ProjectFiles;
  readonly #access: RunAccess;
  readonly #agentCalls: AgentCallOperations;
  readonly #commands: CommandOperations;
  readonly #storedCounts: () => Promise<
    readonly [Record<string, number>, { artifacts: number; records: number }, PublicationRecord[]]
  >;
  /** Run views as last read, kept until the next write (an agent waiting on a person reads one again and again). */
  readonly #runViews: (runId: string) => Promise<RunView>;

  private constructor(options: EngineOptions) {
    const writes = new StoreWrites(options.storage);
    const storage = writes.storage;
    const log = options.log ?? (() => {});
    const registry = new WorkflowRegistry(options.embedded, options.projectTree);
    const versions = new WorkflowVersions(registry);
    const changes = new ChangeFeed(log);
    this.#storage = storage;
    this.#registry = registry;
    this.#versions = versions;
    this.#log = log;
    this.#changes = changes;
    this.#models = options.models ?? NO_MODELS;
    this.#projectFiles = options.projectFiles;
    this.#access = new RunAccess({
      storage,
      registry,
      versions,
      changes,
      projectFiles: options.projectFiles,
      projectChanges: options.projectChanges,
      publishFolder: options.publishFolder,
      now: options.now ?? (() => new Date()),
      log,
    });
    this.#agentCalls = new AgentCallOperations({
      access: this.#access,
      storage,
      versions,
      projectFiles: options.projectFiles,
      editRefusal: options.editRefusal ??
        (() =>
          "this service does not know whether you trust the project's workflows; weft writes no file for them"),
      log,
    });
    this.#commands = new CommandOperations(this.#access, storage);
    // `status` asks for these counts on every call; they change only when something is written.
    this.#storedCounts = writes.keep(() =>
      storage.read(async (unit) =>
        [
          await unit.runs.countByStatus(),
          await unit.artifacts.counts(),
          await unit.publications.list(),
        ] as const
      )
    );
    this.#runViews = writes.keepEach(
      (runId: string) =>
        storage.read(async (unit) => deepFreeze(toRunView(await this.#access.load(unit, runId)))),
      RUN_VIEWS_KEPT,
    );
  }

  /** Opens the store, loads the workflows and applies the restart rules (docs/reference.md, "Durability and restart"). */
  static async open(options: EngineOptions): Promise<Engine> {
    try {
      const engine = new Engine(options);
      await engine.#pinUnversionedRuns();
      await engine.#interruptActiveCalls();
      await engine.#finishPublications();
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
   * Every workflow with availability, readiness when `executor` executes its agent steps, its current version
   * and how many active Runs another version drives; picks up edited project ones.
   */
  async listWorkflows(executor: AgentExecutor): Promise<WorkflowView[]> {
    this.#registry.refresh();
    const active = await this.#storage.read((unit) => unit.runs.activeVersions());
    return this.#versions.describe(this.#registry.views(executor, this.#models), active);
  }

  /**
   * Starts a Run of `flowName` for `intent`, created from `source`, whose agent steps `agentExecutor`
   * executes (or the IDE's agent, see `executorFor`); not idempotent.
   */
  startRun(input: StartRunOptions): Promise<RunView> {
    checkIntent(input.intent);
    this.#registry.refresh();
    const entry = this.#registry.find(input.flowName);
    if (!entry) throw notFound(`no workflow named "${input.flowName}"`);
    if (!entry.ok) throw invalid(`workflow "${input.flowName}" is unavailable: ${entry.reason}`);
    const workflow = entry.workflow;
    const agentExecutor = executorFor(workflow, input.agentExecutor, this.#models);
    const blocked = readinessBlock(workflow, agentExecutor, this.#models);
    if (blocked) throw new WeftError(blocked.code, `workflow "${input.flowName}": ${blocked.reason}`);
    const { intent, source } = input;
    const run = newRunState(workflow, { intent, source, agentExecutor, at: this.#access.timestamp() });
    return this.#create(run, workflow, workflow, async (unit) => {
      if (workflow.manifest.input === "plan") run.input = await resolvePlanInput(unit, intent);
    });
  }

  /**
   * Starts a revision Run of the Artifact published at `path`, which a person edited (`revision.ts`):
   * `NOT_FOUND` when weft never published there or the file is gone, `INVALID_REQUEST` when it is as weft
   * wrote it (nothing to revise) or its stage no longer publishes a commit.
   */
  async reviseArtifact(
    input: { path: string; source: Source; agentExecutor: AgentExecutor },
  ): Promise<RunView> {
    const { path, source } = input;
    const written = await this.#storage.read((unit) => unit.publications.find(path));
    const { record, digest, text } = await readEdit(this.#projectFiles, path, written);
    const artifact = await this.getArtifact({ artifactId: record.artifactId });
    if (!artifact) {
      throw notFound(`the Artifact ${record.artifactId} published at ${path} is no longer stored`);
    }
    this.#registry.refresh();
    const entry = this.#registry.find(artifact.flowName);
    if (!entry?.ok) throw invalid(`workflow "${artifact.flowName}" of ${path} is unavailable`);
    const stage = entry.workflow.manifest.stages[artifact.stageName];
    if (!stage?.publish || committedPointer(stage) === undefined) {
      throw invalid(
        `stage "${artifact.stageName}" of workflow "${artifact.flowName}" no longer publishes a commit`,
      );
    }
    const origin = {
      artifactId: artifact.artifactId,
      stageName: artifact.stageName,
      fromRevision: artifact.revision,
      path,
      digest,
    };
    const workflow = revisionWorkflow(entry.workflow, origin, { current: artifact.data, edited: text });
    const agentExecutor = executorFor(workflow, input.agentExecutor, this.#models);
    const blocked = readinessBlock(workflow, agentExecutor, this.#models);
    if (blocked) throw new WeftError(blocked.code, `revising ${path}: ${blocked.reason}`);
    const intent = `Bring the edits of ${path} back into ${artifact.flowName}/${artifact.stageName}`;
    const run = newRunState(workflow, { intent, source, agentExecutor, at: this.#access.timestamp() });
    run.revision = origin;
    return this.#create(run, workflow, entry.workflow);
  }

  /**
   * Creates `run`, driven by `workflow` and pinned to the version of `pinned` (the workflow as loaded, which a
   * revision Run's derived definition comes from); an exclusive workflow's second active Run is `CONFLICT`.
   */
  #create(
    run: RunState,
    workflow: LoadedWorkflow,
    pinned: LoadedWorkflow,
    prepare?: (unit: StorageUnit) => Promise<void>,
  ): Promise<RunView> {
    return this.#access.create(run, workflow, async (unit) => {
      if (workflow.manifest.exclusive && await unit.runs.hasActive(run.flowName)) {
        throw conflict(`workflow "${run.flowName}" is exclusive and already has an active Run`);
      }
      run.version = await this.#versions.pin(unit.definitions, pinned, run.createdAt);
      await prepare?.(unit);
    }, (change) => change.start(run.source));
  }

  /** One Run; `NOT_FOUND` when unknown. The view is shared with other readers: it is frozen. */
  getRun(runId: string): Promise<RunView> {
    return this.#runViews(runId);
  }

  /** A Run's timeline, oldest first. */
  getRunTimeline(runId: string): Promise<RunEventView[]> {
    return this.#storage.read(async (unit) => {
      await this.#access.load(unit, runId);
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
   * this Run (see {@linkcode checkAnswerer}) or a relayed answer reaches a step only the person answers
   * (`checkChannel`): nothing is consumed and the Run keeps waiting.
   */
  answerAsk(input: {
    runId: string;
    actionId: string;
    answer: unknown;
    source: Source;
    /** The IDE showed the person its native form (rather than its agent relaying the answer). */
    nativeForm?: boolean;
    by?: string;
  }): Promise<RunView> {
    const { source, by } = input;
    const channel = answerChannel(source, input.nativeForm ?? false);
    return this.#access.change(input.runId, { actionId: input.actionId }, (change) => {
      checkAnswerer(change.run, source);
      change.answer({ source, channel, ...(by ? { by } : {}) }, input.answer);
    });
  }

  /**
   * The pending action `actionId` of a Run, for `source` to show its person (`interact`); `CONFLICT` when it
   * is not pending, `NOT_ALLOWED` when `source` may not answer it.
   */
  pendingAction(
    { runId, actionId, source }: { runId: string; actionId: string; source: Source },
  ): Promise<{ run: RunView; action: PendingActionView }> {
    return this.#storage.read(async (unit) => {
      const run = await this.#access.load(unit, runId);
      await this.#access.expect(unit, run, { actionId });
      checkAnswerer(run, source);
      return { run: toRunView(run), action: run.pendingAction! };
    });
  }

  /**
   * Cancels an active Run; a Run already cancelled is returned as it is (cancelling is idempotent), one that
   * completed or failed is `CONFLICT`. Agent-call listeners are notified.
   */
  async cancelRun(runId: string, source: Source): Promise<RunView> {
    try {
      return await this.#access.change(runId, null, (change) => change.cancel(source));
    } catch (error) {
      if (!(error instanceof WeftError) || error.code !== "CONFLICT") throw error;
      // Once cancelled a Run stays so: reading it after the refusal cannot race with another change.
      const run = await this.getRun(runId);
      if (run.status === "cancelled") return run;
      throw error;
    }
  }

  /**
   * Moves a waiting Run to the current version of its workflow, when it fits there: its stage and step
   * exist, its state matches the stage's new schema and what it waits for still makes sense. Otherwise
   * `CONFLICT` lists what does not fit, and the Run goes on under its own version.
   */
  moveRun(runId: string, source: Source): Promise<RunView> {
    this.#registry.refresh();
    return this.#access.changeStored(runId, async (unit, run, at) => {
      const moved = await this.#versions.moveToCurrent(unit.definitions, run, at);
      if (!moved) return undefined;
      const { stageName, stepName } = run;
      return [{ type: "run_moved", at, stageName, stepName, source, ...moved }];
    });
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

  /** Counts for the `status` tool. */
  async stats(): Promise<EngineStats> {
    const [counts, stored, written] = await this.#storedCounts();
    return {
      runs: Object.fromEntries(
        RUN_STATUSES.map((status) => [status, counts[status] ?? 0]),
      ) as EngineStats["runs"],
      ...stored,
      workflows: this.#registry.availability(),
      storage: { kind: this.#storage.kind, journalMode: this.#storage.journalMode },
      publications: { files: written.length, changed: await driftOf(this.#projectFiles, written) },
    };
  }

  /** The pending agent call `callId`: its task, and whether it is claimed yet. */
  agentCall(runId: string, callId: string): Promise<{ task: AgentTaskDefinition; phase: AgentCallPhase }> {
    return this.#agentCalls.task({ runId, callId });
  }

  /**
   * Marks the pending agent call as claimed by `claimant` (persisted, so a restart interrupts it) and returns
   * its task; `CONFLICT` when the Run's agent steps are another executor's.
   */
  claimAgentCall(options: ClaimAgentCallOptions): Promise<{ task: AgentTaskDefinition; run: RunView }> {
    return this.#agentCalls.claim(options);
  }

  /** Runs one tool the agent step declares, with validated input and output. */
  runAgentTool(options: RunAgentToolOptions): Promise<unknown> {
    return this.#agentCalls.runTool(options);
  }

  /** Reads one declared skill asset of the pending agent call. */
  readAgentAsset(options: ReadAgentAssetOptions): Promise<AgentAssetView> {
    return this.#agentCalls.readAsset(options);
  }

  /** Completes the pending agent call with its result and continues the Run until it waits or ends. */
  completeAgentCall(options: CompleteAgentCallOptions): Promise<RunView> {
    return this.#agentCalls.complete(options);
  }

  /**
   * Fails the Run of the pending agent call with the agent's message, keeping earlier effects. The service's
   * model executor passes the classified code of what went wrong instead of `AGENT_CALL_FAILED`.
   */
  failAgentCall(options: FailAgentCallOptions): Promise<RunView> {
    return this.#agentCalls.fail(options);
  }

  /** Which model role runs the pending agent call, and its budgets (step, then workflow, then defaults). */
  agentCallModel(runId: string, callId: string): Promise<ModelCallSettings> {
    return this.#agentCalls.modelSettings({ runId, callId });
  }

  /** Adds what the service's model did (a turn, a tool call) to the timeline of the pending agent call. */
  noteAgentCall(options: NoteAgentCallOptions): Promise<RunView> {
    return this.#agentCalls.note(options);
  }

  /**
   * A person's decision to resume a Run whose agent call stopped (the service restarted, or the model server
   * did not answer): the Run waits again at the same step with a new agent call id, for the same executor.
   * Receipts of the old attempt are gone with it; nothing is replayed.
   */
  retryRun(runId: string, source: Source): Promise<RunView> {
    return this.#access.change(runId, null, (change) => change.retry(source));
  }

  /** The pending command `commandId` as the step of the Run's definition declares it. */
  commandSpec(runId: string, commandId: string): Promise<CommandSpec> {
    return this.#commands.spec({ runId, commandId });
  }

  /** Marks the pending command as running `argv` in `cwd` (project-relative); a restart interrupts it. */
  startCommand(options: StartCommandOptions): Promise<RunView> {
    return this.#commands.start(options);
  }

  /** Leaves the Run waiting on its command, which the person has not trusted, with the reason. */
  blockCommand(options: BlockCommandOptions): Promise<RunView> {
    return this.#commands.block(options);
  }

  /** Records how the pending command ended and continues by its outcome. */
  completeCommand(options: CompleteCommandOptions): Promise<RunView> {
    return this.#commands.complete(options);
  }

  /** Fails the Run of a pending command that could not start. */
  failCommand(options: FailCommandOptions): Promise<RunView> {
    return this.#commands.fail(options);
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

  /** Pins the Runs an older weft stored without a version (see {@linkcode WorkflowVersions.pinUnversioned}). */
  async #pinUnversionedRuns(): Promise<void> {
    const pinned = await this.#storage.transaction((unit) =>
      this.#versions.pinUnversioned(unit, this.#access.timestamp())
    );
    if (pinned) this.#log({ event: "runs_pinned", count: pinned });
  }

  /** Agent calls and executing steps do not survive a restart; human waits do. */
  /** Finishes the publications a kill cut short between a commit and the outcome of its publication. */
  async #finishPublications(): Promise<void> {
    const count = await this.#access.finishPendingPublications();
    if (count) this.#log({ event: "publications_finished", count });
  }

  async #interruptActiveCalls(): Promise<void> {
    const count = await this.#access.interruptActive();
    if (count) this.#log({ event: "runs_interrupted", count });
  }
}
