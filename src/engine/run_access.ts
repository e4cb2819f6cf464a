/**
 * How the engine's operations reach a Run: they load it in a unit of work of the storage port and check what
 * it waits on, and they change it in the one place a decided change is applied. A change loads the Run, lets
 * the state machine ({@linkcode RunChange}) decide without touching storage, and applies the decision (the
 * Run, its timeline events, its stage commits and the publications they decide, as pending) in one
 * transaction committed before the promise resolves, then writes the files the commits publish (a file write
 * cannot be rolled back, so it comes after the commit, and its outcome is recorded in a transaction of its
 * own, which removes it from the pending ones), then tells the change feed.
 *
 * A decision that stopped for the project's files (`changes_transitions.ts`: git plumbing, file digests) is
 * not applied in the transaction that made it: units of one storage never interleave, so a read there would
 * hold every other Run's operation until git answered. That transaction ends without writing the Run, the
 * files are read outside any unit, and a second transaction applies the decision only if the Run is still
 * as it was loaded; a Run changed meanwhile is decided again from what it is now.
 *
 * @module
 */
import { conflict, errorKind, notFound } from "../errors.ts";
import { ChangeFeed, commitChanges, type EngineChange } from "./change_feed.ts";
import {
  addPending,
  type CommittedPublication,
  committedPublication,
  finishPending,
  finishPublication,
} from "./publication.ts";
import type { ProjectFiles } from "./project_files.ts";
import { currentStep, RunChange } from "./run_change.ts";
import { readProjectFor } from "./changes_transitions.ts";
import { revisionWorkflow } from "./revision.ts";
import type { ProjectChanges } from "./project_changes.ts";
import { type NewRunEvent, type RunState, toRunView } from "./run_state.ts";
import type { Storage, StorageUnit } from "./storage.ts";
import { isActive, type RunView } from "./views.ts";
import { latestRevision } from "./plan_input.ts";
import { needsCommitted } from "./check_rules.ts";
import type { LoadedWorkflow } from "./workflow/loader.ts";
import type { StepDef } from "./workflow/manifest.ts";
import type { WorkflowRegistry } from "./workflow/registry.ts";
import type { WorkflowVersions } from "./workflow/versions.ts";

/** What a change to a Run expects to be pending; anything else is a stale request (`CONFLICT`). */
export type Expectation = { actionId: string } | { callId: string } | { commandId: string };

/** A Run waiting at a step of `kind`, with the definition that drives it. */
export interface PendingStep<K extends StepDef["kind"]> {
  run: RunState;
  workflow: LoadedWorkflow;
  step: Extract<StepDef, { kind: K }>;
}

/** What {@linkcode RunAccess} works with; the engine hands it its own. */
export interface RunAccessOptions {
  storage: Storage;
  registry: WorkflowRegistry;
  versions: WorkflowVersions;
  changes: ChangeFeed;
  projectFiles: ProjectFiles;
  projectChanges: ProjectChanges;
  publishFolder: string | undefined;
  now: () => Date;
  log: (event: Record<string, unknown>) => void;
}

/** What one committed transaction did to a Run: its state afterwards and the timeline events it added. */
interface SavedRun {
  view: RunView;
  events: readonly NewRunEvent[];
  /** The committed Artifacts its stages publish, with their data, to be written once the transaction has committed. */
  publications?: { publication: CommittedPublication; data: unknown }[];
}

/** A Run's definition as the unit of work could resolve it, or why it could not (cancel needs none). */
type Resolved = { workflow: LoadedWorkflow } | { error: unknown };

/**
 * How often a change whose Run moved on while the project's files were read is decided again before it
 * gives up with `CONFLICT`: each retry follows another operation's commit on the same Run, so a few suffice.
 */
const DECIDE_ATTEMPTS = 4;

/** What the first transaction of a change gave: the applied change, or one waiting for the project's files. */
type Decided =
  | { saved: SavedRun }
  | { change: RunChange; loaded: string };

/** The engine's reads of one Run and the one place its changes are applied. */
export class RunAccess {
  readonly #options: RunAccessOptions;

  constructor(options: RunAccessOptions) {
    this.#options = options;
  }

  /** Now, as the timeline and the store write it. */
  timestamp(): string {
    return this.#options.now().toISOString();
  }

  /** The Run `runId`; `NOT_FOUND` when unknown. */
  async load(unit: StorageUnit, runId: string): Promise<RunState> {
    const run = typeof runId === "string" ? await unit.runs.find(runId) : undefined;
    if (!run) throw notFound(`no Run with id "${runId}"`);
    return run;
  }

  /**
   * Checks that `run` waits on what the request names. A wrong agent call is told apart only on this failing
   * path, by the timeline: `NOT_FOUND` when the Run never started it, `CONFLICT` when it is no longer active.
   */
  async expect(unit: StorageUnit, run: RunState, expectation: Expectation): Promise<void> {
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
  async workflowOf(unit: StorageUnit, run: RunState, pin: boolean): Promise<LoadedWorkflow> {
    const { registry, versions } = this.#options;
    const driven = (workflow: LoadedWorkflow) =>
      run.revision ? revisionWorkflow(workflow, run.revision) : workflow;
    if (run.version) return driven(await versions.resolve(unit.definitions, run.flowName, run.version));
    const workflow = registry.loaded(run.flowName);
    if (!workflow) throw conflict(`workflow "${run.flowName}" is currently unavailable; fix it and reload`);
    if (pin) run.version = await versions.pin(unit.definitions, workflow, this.timestamp());
    return driven(workflow);
  }

  /**
   * The Run, its definition and its current step, when the Run waits on what `expectation` names at a step
   * of `kind`; a read, so an unpinned Run is not pinned here.
   */
  async pendingStep<K extends StepDef["kind"]>(
    unit: StorageUnit,
    runId: string,
    expectation: Expectation,
    kind: K,
  ): Promise<PendingStep<K>> {
    const run = await this.load(unit, runId);
    await this.expect(unit, run, expectation);
    const workflow = await this.workflowOf(unit, run, false);
    const step = currentStep(workflow, run);
    if (step.kind !== kind) {
      throw conflict(`Run ${runId} is not at ${kind === "agent" ? "an" : "a"} ${kind} step`);
    }
    return { run, workflow, step: step as Extract<StepDef, { kind: K }> };
  }

  /**
   * Creates `run` of `workflow` and lets `decide` take its first transition, in one transaction; `prepare`
   * runs first in it (what must hold of the store, the version to pin). When the first transition needs the
   * project's files, they are read after that transaction, and `prepare` runs again in the one that inserts
   * the Run, so what it checks still holds when the Run appears.
   */
  async create(
    run: RunState,
    workflow: LoadedWorkflow,
    prepare: (unit: StorageUnit) => Promise<void>,
    decide: (change: RunChange) => void,
  ): Promise<RunView> {
    const { storage, publishFolder } = this.#options;
    const decided: Decided = await storage.transaction(async (unit) => {
      await prepare(unit);
      const change = new RunChange(() => workflow, run, run.createdAt, publishFolder);
      decide(change);
      if (change.projectReads.length) return { change, loaded: "" };
      return { saved: await this.#apply(unit, change, true) };
    });
    if ("saved" in decided) return await this.#told(decided.saved, true);
    await this.#readProject(decided.change);
    const saved = await storage.transaction(async (unit) => {
      await prepare(unit);
      return await this.#apply(unit, decided.change, true);
    });
    return await this.#told(saved, true);
  }

  /**
   * Loads a Run, checks what must be pending (nothing when `expectation` is null), lets the state machine decide
   * one transition and applies the decision, all in one transaction; then writes what it publishes and tells the
   * change feed. A decision that needs the project's files is applied by a second transaction, after the read,
   * when the Run is as the first one loaded it; else it is decided again (a stale request then fails as one).
   */
  async change(
    runId: string,
    expectation: Expectation | null,
    decide: (change: RunChange) => void,
  ): Promise<RunView> {
    const { storage } = this.#options;
    for (let attempt = 1;; attempt++) {
      const decided: Decided = await storage.transaction(async (unit) => {
        const run = await this.load(unit, runId);
        if (expectation) await this.expect(unit, run, expectation);
        const loaded = JSON.stringify(run);
        const change = await this.#changeOf(unit, run, this.timestamp());
        decide(change);
        if (change.projectReads.length) return { change, loaded };
        return { saved: await this.#apply(unit, change, false) };
      });
      if ("saved" in decided) return await this.#told(decided.saved, false);
      await this.#readProject(decided.change);
      const saved = await storage.transaction(async (unit) => {
        const run = await this.load(unit, runId);
        if (JSON.stringify(run) !== decided.loaded) return undefined;
        // The version the first transaction pinned (and stored) must still be the one pinning gives now.
        if (!run.version) await this.workflowOf(unit, run, true);
        if (run.version !== decided.change.run.version) return undefined;
        return await this.#apply(unit, decided.change, false);
      });
      if (saved) return await this.#told(saved, false);
      if (attempt === DECIDE_ATTEMPTS) {
        throw conflict(`Run ${runId} kept changing while its project files were read; try again`);
      }
    }
  }

  /**
   * Changes a Run outside the state machine (a move to another version, which reads stored definitions), in
   * one transaction: `change` returns the events it added, or nothing when the Run stays as it is.
   */
  async changeStored(
    runId: string,
    change: (unit: StorageUnit, run: RunState, at: string) => Promise<NewRunEvent[] | undefined>,
  ): Promise<RunView> {
    const saved = await this.#options.storage.transaction(async (unit) => {
      const run = await this.load(unit, runId);
      const at = this.timestamp();
      const events = await change(unit, run, at);
      if (!events) return toRunView(run);
      run.updatedAt = at;
      await unit.runs.update(run);
      await unit.runs.appendEvents(runId, events);
      return { view: toRunView(run), events };
    });
    return "events" in saved ? this.#publish(saved, false) : saved;
  }

  /** Fails every Run whose agent call or executing step was cut by a restart; returns how many. */
  interruptActive(): Promise<number> {
    return this.#options.storage.transaction(async (unit) => {
      const at = this.timestamp();
      const runs = await unit.runs.listInterruptible();
      for (const run of runs) {
        const change = await this.#changeOf(unit, run, at);
        change.interrupt();
        await this.#apply(unit, change, false);
      }
      return runs.length;
    });
  }

  /** Reads what `change` stopped for from the project's files, outside any unit of work. */
  #readProject(change: RunChange): Promise<void> {
    return readProjectFor(change, this.#options.projectChanges, this.#options.log);
  }

  /**
   * The state machine for one change of `run`. Its definition is resolved first, since it decides
   * synchronously; a definition that cannot be had fails only the transitions that need it (cancel and
   * interrupt need none, so they work on any Run).
   */
  async #changeOf(unit: StorageUnit, run: RunState, at: string): Promise<RunChange> {
    const resolved: Resolved = await this.workflowOf(unit, run, true).then(
      (workflow) => ({ workflow }),
      (error) => ({ error }),
    );
    const change = new RunChange(
      () => {
        if ("error" in resolved) throw resolved.error;
        return resolved.workflow;
      },
      run,
      at,
      this.#options.publishFolder,
    );
    // A list that follows an Artifact (a plan) takes its latest revision at the next item boundary.
    const source = run.list?.source;
    if (source && isActive(run.status)) change.latestInput = await latestRevision(unit, source.artifactId);
    // A check that covers an earlier stage's list (a plan's tasks, the requirements) reads what it committed.
    const workflow = "workflow" in resolved ? resolved.workflow : undefined;
    if (workflow && isActive(run.status) && needsCommitted(workflow.manifest)) {
      const committed = await unit.artifacts.committedByRun(run.runId);
      change.committed = new Map(committed.map((entry) => [entry.stageName, entry.data]));
    }
    // A revision Run commits only over the revision it began from (`revision.ts`).
    if (run.revision && isActive(run.status)) {
      change.revisedLatest = (await unit.artifacts.findArtifact({ artifactId: run.revision.artifactId }))
        ?.revision;
    }
    return change;
  }

  /**
   * Applies what a change decided, inside the caller's transaction: a new Run is inserted first (its stage
   * commits refer to it), each stage commit is stored and its timeline event completed with the Artifact id
   * and revision the store assigned, then the Run is saved and its events appended.
   */
  async #apply(unit: StorageUnit, change: RunChange, created: boolean): Promise<SavedRun> {
    const { run, events } = change;
    if (created) await unit.runs.insert(run);
    const publications: NonNullable<SavedRun["publications"]> = [];
    for (const decided of change.commits) {
      const { artifact } = await unit.artifacts.commit(decided.commit);
      Object.assign(decided.event, { artifactId: artifact.artifactId, revision: artifact.revision });
      if (!decided.publication) continue;
      const publication = committedPublication(run, decided, artifact);
      await addPending(unit, publication);
      publications.push({ publication, data: decided.commit.data });
    }
    if (!created) await unit.runs.update(run);
    await unit.runs.appendEvents(run.runId, events);
    return { view: toRunView(run), events, ...(publications.length ? { publications } : {}) };
  }

  /** After a commit: the change feed hears of it, then the files it publishes are written. */
  async #told(saved: SavedRun, created: boolean): Promise<RunView> {
    const view = this.#publish(saved, created);
    await this.#writePublications(saved);
    return view;
  }

  /**
   * Writes the files a committed transaction publishes, each in a transaction of its own that records the
   * outcome (`publication.ts`): the commit stands whatever happens here. Units never interleave, so two Runs
   * publishing one path take turns.
   */
  async #writePublications(saved: SavedRun): Promise<void> {
    if (!saved.publications) return;
    const { storage, projectFiles, log, changes } = this.#options;
    const runId = saved.view.runId;
    const events: NewRunEvent[] = [];
    for (const { publication, data } of saved.publications) {
      try {
        const event = await finishPublication(
          storage,
          projectFiles,
          publication,
          data,
          () => this.timestamp(),
          log,
        );
        if (event) events.push(event);
      } catch (error) {
        // The store failed to record it: the commit is kept, the publication stays pending for the next start,
        // and the operation still answers with the commit.
        log({ event: "publication_unrecorded", runId, ...errorKind(error) });
      }
    }
    if (!events.length) return;
    // The commit was told in its order already; this tells that the timeline grew, with the Run as it is now
    // (a change committed meanwhile has been told, and must not be followed by an older view).
    const now = toRunView(await storage.read((unit) => this.load(unit, runId)));
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
    changes.publish([...artifacts, ...commitChanges(now, events, false)]);
  }

  /**
   * Finishes the publications a kill cut short (stored as pending with their commit); a start does this
   * before it serves, so no one is told. Returns how many.
   */
  async finishPendingPublications(): Promise<number> {
    const { storage, projectFiles, log } = this.#options;
    return (await finishPending(storage, projectFiles, () => this.timestamp(), log)).length;
  }

  /**
   * Tells the change feed what one committed transaction did: the Artifacts its stage commits wrote, then
   * the Run. Every change of a Run passes here after its commit, whichever operation made it.
   */
  #publish(saved: SavedRun, created: boolean): RunView {
    this.#options.changes.publish(commitChanges(saved.view, saved.events, created));
    return saved.view;
  }
}
