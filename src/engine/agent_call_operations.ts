/**
 * The engine's operations on a pending agent call, which the agent-task protocol (`src/agent_calls/`) drives:
 * its task, the claim, the step's declared tools and skill assets, and how the call ends. Each reads or
 * changes the Run through {@linkcode RunAccess}, which refuses a call the Run no longer waits on; what a
 * change does is decided in `agent_call_transitions.ts`.
 *
 * @module
 */
import { errorKind, invalid, WeftError } from "../errors.ts";
import { claimAgentCall, completeAgentCall, failAgentCall, submitState } from "./agent_call_transitions.ts";
import { type AgentStep, buildAgentTask, buildRunContext, readSkillAsset } from "./agent_task.ts";
import { type ModelCallSettings, modelCallSettings } from "./model_roles.ts";
import type { ProjectFiles } from "./project_files.ts";
import {
  type EditOutcome,
  FILE_WRITTEN,
  type FileEdit,
  MAX_WRITES_PER_CALL,
  planEdit,
} from "./file_edits.ts";
import { type DeclaredEditStep, declaredEditStep } from "./workflow/trusted_steps.ts";
import type { PendingStep, RunAccess } from "./run_access.ts";
import type { Storage, StorageUnit } from "./storage.ts";
import { executeTool } from "./tool_kinds.ts";
import type { AgentAssetView, AgentCallPhase, AgentExecutor, AgentTaskDefinition, RunView } from "./views.ts";
import type { WorkflowVersions } from "./workflow/versions.ts";

/** Names one agent call: the Run's `pendingAgentCall.id` is the `callId`. */
export interface AgentCallRef {
  runId: string;
  callId: string;
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

/** Options of `Engine.claimAgentCall`. */
export interface ClaimAgentCallOptions extends AgentCallRef {
  claimant: AgentExecutor;
}

/** Options of `Engine.runAgentTool`. */
export interface RunAgentToolOptions extends AgentCallRef {
  toolId: string;
  input: unknown;
}

/** Options of `Engine.readAgentAsset`. */
export interface ReadAgentAssetOptions extends AgentCallRef {
  assetId: string;
}

/** Options of `Engine.completeAgentCall`. */
export interface CompleteAgentCallOptions extends AgentCallRef {
  result: unknown;
}

/** Options of `Engine.failAgentCall`. */
export interface FailAgentCallOptions extends AgentCallRef {
  /** What went wrong, for the person; not blank. */
  message: string;
  /** `AGENT_CALL_FAILED` unless the service's model executor classifies what went wrong. */
  code?: AgentCallFailureCode;
}

/** Options of `Engine.noteAgentCall`. */
export interface NoteAgentCallOptions extends AgentCallRef {
  type: AgentCallNote;
  fields: Record<string, unknown>;
}

/** What the agent-call operations work with; the engine hands them its own. */
export interface AgentCallOperationsOptions {
  access: RunAccess;
  storage: Storage;
  versions: WorkflowVersions;
  /** The project's files: what the step's file tools reach. */
  projectFiles: ProjectFiles;
  /** Why the person does not trust a project workflow step's file edits (undefined: trusted). */
  editRefusal: (site: DeclaredEditStep) => string | undefined;
  log: (event: Record<string, unknown>) => void;
}

/** The operations on pending agent calls. */
export class AgentCallOperations {
  readonly #access: RunAccess;
  readonly #storage: Storage;
  readonly #versions: WorkflowVersions;
  readonly #projectFiles: ProjectFiles;
  readonly #editRefusal: (site: DeclaredEditStep) => string | undefined;
  readonly #log: (event: Record<string, unknown>) => void;

  constructor(options: AgentCallOperationsOptions) {
    this.#access = options.access;
    this.#storage = options.storage;
    this.#versions = options.versions;
    this.#projectFiles = options.projectFiles;
    this.#editRefusal = options.editRefusal;
    this.#log = options.log;
  }

  /** The pending agent call: its task, and whether it is claimed yet. */
  async task({ runId, callId }: AgentCallRef): Promise<{ task: AgentTaskDefinition; phase: AgentCallPhase }> {
    const { run, workflow, step } = await this.#storage.read((unit) =>
      this.#pending(unit, { runId, callId })
    );
    return { task: buildAgentTask(run, workflow, step, callId), phase: run.pendingAgentCall!.phase };
  }

  /** Claims the pending agent call for `claimant` and returns its task. */
  async claim(
    { runId, callId, claimant }: ClaimAgentCallOptions,
  ): Promise<{ task: AgentTaskDefinition; run: RunView }> {
    let task: AgentTaskDefinition | undefined;
    const run = await this.#access.change(runId, { callId }, (change) => {
      claimAgentCall(change, claimant);
      task = buildAgentTask(change.run, change.workflow, change.step as AgentStep, callId);
    });
    return { task: task!, run };
  }

  /** Runs one tool the agent step declares, with validated input and output. */
  async runTool(
    { runId, callId, toolId, input }: RunAgentToolOptions,
  ): Promise<unknown> {
    try {
      const { run, step } = await this.#storage.read((unit) => this.#pending(unit, { runId, callId }));
      const tool = step.tools?.find((candidate) => candidate.id === toolId);
      if (!tool) throw invalid(`tool "${toolId}" is not declared by this agent step`);
      return await executeTool(tool, input, {
        files: this.#projectFiles,
        // The Run just read is the one the context shows: while this tool runs, no other change of the call
        // can (tools run one at a time, and completion waits for them), and a cancel commits nothing.
        runContext: async () =>
          buildRunContext(run, await this.#storage.read((unit) => unit.artifacts.committedByRun(runId))),
        submitState: async (target, value) => {
          await this.#access.change(
            runId,
            { callId },
            (change) => submitState(change, toolId, target, value),
          );
        },
        editFile: (path, edit) => this.#editFile({ runId, callId }, toolId, path, edit),
      });
    } catch (error) {
      if (error instanceof WeftError) throw error;
      this.#log({ event: "agent_tool_failed", runId, toolId, ...errorKind(error) });
      throw new WeftError("TOOL_FAILED", `tool "${toolId}" failed`, { cause: error });
    }
  }

  /** Reads one declared skill asset of the pending agent call, as stored with the Run's version. */
  readAsset({ runId, callId, assetId }: ReadAgentAssetOptions): Promise<AgentAssetView> {
    return this.#storage.read(async (unit) => {
      const { workflow, step } = await this.#pending(unit, { runId, callId });
      return await readSkillAsset(
        workflow,
        step,
        assetId,
        (path) => this.#versions.fileBytes(unit.definitions, workflow, path),
      );
    });
  }

  /** Completes the pending agent call with its result and continues the Run until it waits or ends. */
  complete({ runId, callId, result }: CompleteAgentCallOptions): Promise<RunView> {
    return this.#access.change(runId, { callId }, (change) => completeAgentCall(change, result));
  }

  /** Fails the Run of the pending agent call with `message` (not blank) and `code`. */
  async fail(
    { runId, callId, message, code = "AGENT_CALL_FAILED" }: FailAgentCallOptions,
  ): Promise<RunView> {
    if (typeof message !== "string" || !message.trim()) throw invalid("message must not be blank");
    return await this.#access.change(runId, { callId }, (change) => failAgentCall(change, message, code));
  }

  /** Which model role runs the pending agent call, and its budgets (step, then workflow, then defaults). */
  async modelSettings(ref: AgentCallRef): Promise<ModelCallSettings> {
    const { workflow, step } = await this.#storage.read((unit) => this.#pending(unit, ref));
    return modelCallSettings(workflow.manifest, step);
  }

  /** Adds what the service's model did (a turn, a tool call) to the timeline of the pending agent call. */
  note(
    { runId, callId, type, fields }: NoteAgentCallOptions,
  ): Promise<RunView> {
    return this.#access.change(runId, { callId }, (change) => change.record(type, { callId, ...fields }));
  }

  /**
   * Applies one edit of a project file as a write of this agent call: refused past the call's bound of
   * writes, and for a project workflow's step unless the person trusts its edits; the file is written
   * atomically, then the write and its diff are added to the timeline, whatever the Run did meanwhile
   * (the file changed, so the timeline says so).
   */
  async #editFile(ref: AgentCallRef, toolId: string, path: string, edit: FileEdit): Promise<EditOutcome> {
    const { runId, callId } = ref;
    const { run, workflow, step } = await this.#storage.read(async (unit) => {
      const pending = await this.#pending(unit, ref);
      const written = (await unit.runs.timeline(runId))
        .filter((event) => event.type === FILE_WRITTEN && event.callId === callId).length;
      if (written >= MAX_WRITES_PER_CALL) {
        throw new WeftError(
          "TOOL_FAILED",
          `this agent call has written ${written} files, its bound; complete it, and let a later step go on`,
        );
      }
      return pending;
    });
    if (workflow.origin === "project") {
      const site = declaredEditStep(
        { workflow: run.flowName, stage: run.stageName, step: run.stepName },
        step,
      );
      const refusal = site ? this.#editRefusal(site) : "this step declares no tool that writes files";
      if (refusal) throw new WeftError("NOT_TRUSTED", refusal);
    }
    const planned = await planEdit(this.#projectFiles, path, edit);
    if (planned.text === undefined) return planned.outcome;
    await this.#projectFiles.write(planned.outcome.path, planned.text);
    await this.#access.change(
      runId,
      null,
      (change) => change.record(FILE_WRITTEN, { callId, toolId, ...planned.event }),
    );
    return planned.outcome;
  }

  #pending(unit: StorageUnit, { runId, callId }: AgentCallRef): Promise<PendingStep<"agent">> {
    return this.#access.pendingStep(unit, runId, { callId }, "agent");
  }
}
