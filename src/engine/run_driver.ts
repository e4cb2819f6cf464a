/**
 * The state machine of one Run: every change to a Run is a transition here. It enters steps, executes the ones
 * that decide on their own (`check`, `commit`), publishes the waits (`agent`, `ask`, `confirm`, `command`),
 * takes answers, agent results, command results, cancellation and restart interruption, follows outcome routes across stages and enforces
 * budgets. It touches no storage: it changes the Run in memory and decides what should follow (timeline
 * events, each stamped with the stage and step it happened at, and the stage commits to store), and the
 * engine applies all of it in one transaction.
 *
 * @module
 */
import { z } from "../lib/zod.ts";
import { conflict, ERROR_CODES, type ErrorCode, invalid, RESUMABLE_FAILURES, WeftError } from "../errors.ts";
import type { AgentStep } from "./agent_task.ts";
import { commandOutcome, type CommandResult, shorterTail } from "./command_step.ts";
import type { StageCommit } from "./storage.ts";
import type { NewRunEvent, RunState } from "./run_state.ts";
import {
  type PublishedQuestion,
  publishQuestions,
  validateConfirmationAnswer,
  validateQuestionsAnswer,
} from "./answers.ts";
import { newId } from "./ids.ts";
import { compileSchema } from "./json_schema.ts";
import { dataLimits, jsonLargerThan } from "./data_limits.ts";
import { checkFeedback } from "./check_rules.ts";
import { getAt, setAt } from "./json_pointer.ts";
import { markdownPointers, schemaAt } from "./markdown_fields.ts";
import { fillPublishPath, slugOf } from "./publish_path.ts";
import { isActive, type Source } from "./views.ts";
import type { LoadedWorkflow } from "./workflow/loader.ts";
import { Question, type StageDef, type StepDef } from "./workflow/manifest.ts";

/** The folder `{publishFolder}` names when weft.json does not say. */
export const DEFAULT_PUBLISH_FOLDER = "docs/weft";

/** How many times one Run may enter a step that declares no budget. */
export const DEFAULT_MAX_VISITS = 25;

/** The step `run` stands at in `workflow`; `CONFLICT` when a reload removed it. */
export function currentStep(workflow: LoadedWorkflow, run: RunState): StepDef {
  const step = workflow.manifest.stages[run.stageName]?.steps[run.stepName];
  if (!step) {
    throw new WeftError(
      "CONFLICT",
      `workflow "${run.flowName}" no longer has step ${run.stageName}/${run.stepName}`,
    );
  }
  return step;
}

/**
 * A stage commit the driver decided on, with the timeline event that reports it; the engine stores the
 * commit and completes the event with the Artifact id and revision the store assigned.
 */
export interface DecidedCommit {
  commit: StageCommit;
  event: NewRunEvent;
  /** Where the stage publishes this commit, when it declares `publish`; written once the commit is stored. */
  publication?: DecidedPublication;
}

/** A publication the driver decided on: the file, and how its body is rendered from the committed data. */
export interface DecidedPublication {
  /** The project-relative path, placeholders filled. */
  path: string;
  template?: string;
  /** JSON pointers into the committed data of the strings its schema marks as Markdown. */
  markdown: string[];
}

/** One change to a Run. */
export class RunDriver {
  readonly events: NewRunEvent[] = [];
  readonly commits: DecidedCommit[] = [];

  readonly #workflowOf: () => LoadedWorkflow;
  readonly #publishFolder: string;
  #workflow: LoadedWorkflow | undefined;

  /**
   * `workflowOf` resolves the Run's workflow definition the first time a transition needs it, and throws
   * (`CONFLICT`) when it cannot be had; cancel and interrupt need none, so they work on any Run.
   */
  constructor(
    workflowOf: () => LoadedWorkflow,
    readonly run: RunState,
    readonly at: string,
    /** What `{publishFolder}` in a publish path stands for (weft.json's `publishFolder`). */
    publishFolder = DEFAULT_PUBLISH_FOLDER,
  ) {
    this.#workflowOf = workflowOf;
    this.#publishFolder = publishFolder;
    run.updatedAt = at;
  }

  /** The Run's workflow definition. */
  get workflow(): LoadedWorkflow {
    return this.#workflow ??= this.#workflowOf();
  }

  /** The current stage definition. */
  get stage(): StageDef {
    return this.workflow.manifest.stages[this.run.stageName];
  }

  /** The current step definition; `CONFLICT` when a reload removed it. */
  get step(): StepDef {
    return currentStep(this.workflow, this.run);
  }

  /** Queues a timeline event stamped with this change's time. */
  record(type: string, fields: Record<string, unknown> = {}): void {
    this.events.push({
      type,
      at: this.at,
      stageName: this.run.stageName,
      stepName: this.run.stepName,
      ...fields,
    });
  }

  /** Starts a new Run, created from `source`, in the workflow's entry stage. */
  start(source: Source): void {
    this.record("run_created", { source });
    this.#enterStage(this.workflow.manifest.entryStage);
  }

  /** Takes the answer to the pending human action (validated completely first) and continues. */
  answer(source: Source, raw: unknown): void {
    const { run } = this;
    const action = run.pendingAction!;
    const step = this.step;
    let outcome: string;
    let answer: unknown;
    if (action.kind === "user_ask_questions") {
      const questions = (action.request as { questions: PublishedQuestion[] }).questions;
      answer = validateQuestionsAnswer(questions, raw);
      outcome = "answered";
      if (step.kind === "ask" && step.answersTo !== undefined) this.#writeOrReject(step.answersTo, answer);
    } else {
      const confirmation = validateConfirmationAnswer(raw);
      answer = confirmation;
      outcome = confirmation.isConfirmed ? "confirmed" : "revise";
      if (!confirmation.isConfirmed && step.kind === "confirm" && step.feedbackTo !== undefined) {
        this.#writeOrReject(step.feedbackTo, confirmation.feedback);
      }
    }
    run.stageAnswers.push({
      actionId: action.id,
      request: action.request,
      stepName: run.stepName,
      kind: action.kind,
      answer,
      source,
      at: this.at,
    });
    delete run.pendingAction;
    run.status = "running";
    this.record("action_answered", { actionId: action.id, kind: action.kind, source, answer });
    this.advance(outcome);
  }

  /** Marks the pending agent call as claimed (persisted, so a restart interrupts it). */
  claimAgentCall(): void {
    // Two claimants racing for one call both pass the claim table's memory check; the store decides.
    if (this.run.pendingAgentCall!.phase === "claimed") {
      throw conflict(
        `agent call ${
          this.run.pendingAgentCall!.id
        } of Run ${this.run.runId} is already claimed by another ` +
          "claimant; only the claimId that claimed it can resume it",
      );
    }
    this.run.pendingAgentCall!.phase = "claimed";
    this.record("agent_call_claimed", { callId: this.run.pendingAgentCall!.id });
  }

  /** Writes what an agent tool submits into the stage state; `INVALID_REQUEST` when the schema rejects it. */
  submitState(toolId: string, target: string, value: unknown): void {
    this.#writeOrReject(target, value);
    this.record("state_submitted", { callId: this.run.pendingAgentCall!.id, toolId, target });
  }

  /** Completes the pending agent call with its result (checked against the step's output schema) and continues. */
  completeAgentCall(result: unknown): void {
    const step = this.step as AgentStep;
    const verdict = compileSchema(step.output.schema)(result);
    if (!verdict.ok) throw outputInvalid(verdict.errors);
    if (step.outputTo !== undefined) {
      const written = this.tryWriteState(step.outputTo, result);
      if (!written.ok) throw outputInvalid(written.errors.map((error) => `stage state ${error}`));
    }
    const outcome = (result as { outcome: string }).outcome;
    const callId = this.run.pendingAgentCall!.id;
    delete this.run.pendingAgentCall;
    this.run.status = "running";
    this.record("agent_call_completed", { callId, outcome });
    this.advance(outcome);
  }

  /** Fails the Run of the pending agent call with the agent's message, keeping earlier effects. */
  failAgentCall(message: string, code: ErrorCode = "AGENT_CALL_FAILED"): void {
    this.record("agent_call_failed", { callId: this.run.pendingAgentCall!.id, code });
    this.fail(code, message, ERROR_CODES[code].retryable);
  }

  /** Cancels an active Run; `CONFLICT` when it has already ended. */
  cancel(source: Source): void {
    if (!isActive(this.run.status)) {
      throw conflict(`Run ${this.run.runId} has already ended (${this.run.status})`);
    }
    this.run.status = "cancelled";
    delete this.run.pendingAction;
    delete this.run.pendingAgentCall;
    delete this.run.pendingCommand;
    this.record("run_cancelled", { source });
  }

  /**
   * Fails a Run whose agent call or step was in progress when the service stopped: claims and receipts live in
   * process memory and cannot be restored. Runs waiting for a human are never interrupted.
   */
  interrupt(): void {
    const callId = this.run.pendingAgentCall?.id;
    const commandId = this.run.pendingCommand?.id;
    this.run.status = "failed";
    this.run.lastError = {
      code: "RUN_INTERRUPTED",
      message: "the service restarted while this Run's agent call or step was in progress",
      retryable: false,
    };
    delete this.run.pendingAgentCall;
    delete this.run.pendingCommand;
    this.record("run_interrupted", { ...(callId ? { callId } : {}), ...(commandId ? { commandId } : {}) });
  }

  /**
   * A person's decision to resume a Run whose agent call stopped: it waits again at the same step with a new
   * agent call id, for the same executor. Receipts of the old attempt are gone with it; nothing is replayed.
   */
  retry(source: Source): void {
    const { runId, status, lastError } = this.run;
    if (status === "waiting" && this.run.pendingCommand?.phase === "untrusted") {
      this.record("run_retried", { source, after: "untrusted" });
      this.openCommand();
      return;
    }
    const code = lastError?.code;
    if (status !== "failed" || !code || !RESUMABLE_FAILURES.includes(code)) {
      throw conflict(
        `Run ${runId} cannot be retried: only a failed Run whose agent call stopped ` +
          `(${RESUMABLE_FAILURES.join(" or ")}) can; this one is ${status}${code ? ` (${code})` : ""}`,
      );
    }
    const kind = this.step.kind;
    if (kind !== "agent" && kind !== "command") {
      throw conflict(`Run ${runId} did not stop at an agent or command step`);
    }
    delete this.run.lastError;
    this.record("run_retried", { source, after: code });
    if (kind === "agent") this.openAgentCall();
    else this.openCommand();
  }

  /** Publishes a new pending command for the current (command) step, with a fresh id: the Run waits for it. */
  openCommand(): void {
    const step = this.step;
    if (step.kind !== "command") throw invalid(`Run ${this.run.runId} is not at a command step`);
    this.#wait();
    this.run.pendingCommand = { id: newId("cmd"), phase: "available", run: step.run, createdAt: this.at };
    this.record("command_requested", { commandId: this.run.pendingCommand.id });
  }

  /** Marks the pending command as running `argv` (persisted, so a restart interrupts it). */
  startCommand(argv: string[], cwd: string): void {
    const pending = this.run.pendingCommand!;
    pending.phase = "running";
    pending.run = argv;
    delete pending.reason;
    this.record("command_started", { commandId: pending.id, run: argv, cwd });
  }

  /** Leaves the Run waiting on a command the person has not trusted, saying why and what to do. */
  blockCommand(reason: string): void {
    const pending = this.run.pendingCommand!;
    pending.phase = "untrusted";
    pending.reason = reason;
    this.record("command_untrusted", { commandId: pending.id, reason });
  }

  /** Records how the pending command ended, writes it to `resultTo` and follows its outcome. */
  completeCommand(result: CommandResult): void {
    const step = this.step;
    if (step.kind !== "command") throw invalid(`Run ${this.run.runId} is not at a command step`);
    const outcome = commandOutcome(result);
    const { exitCode, signal, timedOut, durationMs } = result;
    this.record("command_ended", {
      commandId: this.run.pendingCommand!.id,
      outcome,
      exitCode,
      signal,
      timedOut,
      durationMs,
      stdout: shorterTail(result.stdout),
      stderr: shorterTail(result.stderr),
    });
    delete this.run.pendingCommand;
    this.run.status = "running";
    if (!this.#writeOrFail(step.resultTo, result)) return;
    this.advance(outcome);
  }

  /** Fails the Run of a pending command that could not start, with the classified reason. */
  failCommand(code: ErrorCode, message: string): void {
    this.record("command_failed", { commandId: this.run.pendingCommand!.id, code });
    this.fail(code, message, ERROR_CODES[code].retryable);
  }

  /** Continues after the current step produced `outcome`, until the Run waits or ends. */
  advance(outcome: string): void {
    let next: string | undefined = outcome;
    while (next !== undefined && this.run.status === "running") {
      const route = this.step.routes[next];
      if (typeof route === "string") {
        next = this.#enterStep(route);
        continue;
      }
      this.record("stage_ended", { outcome: route.endStage });
      const stageRoute = this.stage.routes[route.endStage];
      if (typeof stageRoute !== "string") {
        this.run.status = "completed";
        this.record("run_completed");
        return;
      }
      next = this.#enterStage(stageRoute);
    }
  }

  /** Writes `value` at `pointer` of the stage state if the result satisfies the stage schema. */
  tryWriteState(pointer: string, value: unknown): { ok: true } | { ok: false; errors: string[] } {
    const candidate = setAt(this.run.state, pointer, value);
    const { stateBytes } = dataLimits(this.workflow.manifest);
    const size = jsonLargerThan(candidate, stateBytes);
    if (size !== false) {
      return {
        ok: false,
        errors: [
          `the stage state would take ${size} bytes, more than this workflow's limit of ${stateBytes} ` +
          "(limits.stateBytes)",
        ],
      };
    }
    const verdict = compileSchema(this.stage.state.schema)(candidate);
    if (verdict.ok) this.run.state = candidate;
    return verdict;
  }

  /** Publishes a new agent call for the current (agent) step, with a fresh id: the Run waits for it. */
  openAgentCall(): void {
    const step = this.step;
    if (step.kind !== "agent") throw invalid(`Run ${this.run.runId} is not at an agent step`);
    this.#wait();
    this.run.pendingAgentCall = {
      id: newId("call"),
      agentId: step.agentId,
      phase: "available",
      createdAt: this.at,
    };
    this.record("agent_call_started", { callId: this.run.pendingAgentCall.id, agentId: step.agentId });
  }

  /** Ends the Run as failed. */
  fail(code: ErrorCode, message: string, retryable = false): void {
    this.run.status = "failed";
    this.run.lastError = { code, message, retryable };
    delete this.run.pendingAction;
    delete this.run.pendingAgentCall;
    delete this.run.pendingCommand;
    this.record("run_failed", { error: this.run.lastError });
  }

  #writeOrReject(pointer: string, value: unknown): void {
    const verdict = this.tryWriteState(pointer, value);
    if (!verdict.ok) rejectWrite(verdict.errors);
  }

  #enterStage(stageName: string): string | undefined {
    this.run.stageName = stageName;
    this.run.state = structuredClone(this.stage.state.initial);
    this.run.stageAnswers = [];
    this.run.stepName = this.stage.entryStep;
    this.record("stage_entered");
    return this.#enterStep(this.stage.entryStep);
  }

  /** Enters a step; returns its outcome when it decides at once, undefined when the Run now waits or ended. */
  #enterStep(stepName: string): string | undefined {
    this.run.stepName = stepName;
    const step = this.step;
    const key = `${this.run.stageName}/${stepName}`;
    const visits = (this.run.visits[key] ?? 0) + 1;
    this.run.visits[key] = visits;
    const budget = step.budget?.maxVisits ?? DEFAULT_MAX_VISITS;
    if (visits > budget) {
      this.fail("BUDGET_EXCEEDED", `step ${key} was entered more than its budget of ${budget} visits`);
      return undefined;
    }
    this.record("step_entered", { kind: step.kind, visit: visits });
    switch (step.kind) {
      case "agent":
        this.openAgentCall();
        return undefined;
      case "ask":
        return this.#ask(step);
      case "confirm": {
        const context = getAt(this.run.state, step.context) ?? null;
        const markdown = markdownPointers(schemaAt(this.stage.state.schema, step.context), context);
        this.#publishAction("user_ask_confirmation", { context, ...(markdown.length ? { markdown } : {}) });
        return undefined;
      }
      case "check":
        return this.#check(step);
      case "commit":
        return this.#commit(step);
      case "command":
        this.openCommand();
        return undefined;
    }
  }

  #ask(step: Extract<StepDef, { kind: "ask" }>): string | undefined {
    const source = step.questions ?? getAt(this.run.state, step.questionsFrom ?? "");
    const parsed = z.array(Question).safeParse(source ?? []);
    const ids = parsed.success ? parsed.data.map((q) => q.id) : [];
    if (!parsed.success || new Set(ids).size !== ids.length) {
      this.fail("INVALID_REQUEST", `the questions at ${step.questionsFrom} of the stage state are malformed`);
      return undefined;
    }
    if (parsed.data.length === 0) {
      this.record("ask_skipped", { reason: "no questions" });
      return this.#writeOrFail(step.answersTo, []) ? "answered" : undefined;
    }
    this.#publishAction("user_ask_questions", { questions: publishQuestions(parsed.data) });
    return undefined;
  }

  #check(step: Extract<StepDef, { kind: "check" }>): string | undefined {
    const feedback = checkFeedback(step.rules, this.run.state);
    const outcome = feedback.length ? "invalid" : "valid";
    this.record("check_evaluated", { outcome, feedback });
    return this.#writeOrFail(step.feedbackTo, feedback) ? outcome : undefined;
  }

  #commit(step: Extract<StepDef, { kind: "commit" }>): string | undefined {
    const data = getAt(this.run.state, step.data);
    if (data === undefined) {
      this.fail("INVALID_REQUEST", `nothing to commit: the stage state has no value at ${step.data || "/"}`);
      return undefined;
    }
    const commit: StageCommit = {
      artifactId: newId("art"),
      recordId: newId("rec"),
      runId: this.run.runId,
      flowName: this.run.flowName,
      stageName: this.run.stageName,
      // Copied: later steps of this same change may replace the state before the engine stores the commit.
      data: structuredClone(data),
      answers: [...this.run.stageAnswers],
      at: this.at,
    };
    this.record("artifact_committed", { recordId: commit.recordId });
    this.commits.push({ commit, event: this.events.at(-1)!, ...this.#publication(step, commit.data) });
    return "committed";
  }

  /** Where and how the current stage publishes `data`, when it declares `publish`. */
  #publication(
    step: Extract<StepDef, { kind: "commit" }>,
    data: unknown,
  ): { publication?: DecidedPublication } {
    const publish = this.stage.publish;
    if (!publish) return {};
    const { flowName, stageName, runId, intent } = this.run;
    const path = fillPublishPath(publish.path, {
      flowName,
      stageName,
      runId,
      slug: slugOf(intent),
      publishFolder: this.#publishFolder,
    });
    const template = this.workflow.templates.get(stageName);
    const markdown = markdownPointers(schemaAt(this.stage.state.schema, step.data), data);
    return { publication: { path, markdown, ...(template === undefined ? {} : { template }) } };
  }

  /** Writes engine-produced values (answers, feedback); a schema that rejects them is a workflow defect. */
  #writeOrFail(pointer: string | undefined, value: unknown): boolean {
    if (pointer === undefined) return true;
    const verdict = this.tryWriteState(pointer, value);
    if (verdict.ok) return true;
    this.fail(
      "INVALID_REQUEST",
      `the stage schema rejects the value written at ${pointer}: ${verdict.errors.join("; ")}`,
    );
    return false;
  }

  #publishAction(kind: "user_ask_questions" | "user_ask_confirmation", request: unknown): void {
    this.#wait();
    this.run.pendingAction = { id: newId("act"), kind, request, createdAt: this.at };
    this.record("action_requested", { actionId: this.run.pendingAction.id, kind });
  }

  #wait(): void {
    this.run.status = "waiting";
  }
}

function outputInvalid(errors: string[]): WeftError {
  return new WeftError(
    "AGENT_OUTPUT_INVALID",
    `the result does not match the output schema: ${errors.join("; ")}`,
  );
}

/** Throws `INVALID_REQUEST` listing the stage-schema violations of a rejected write. */
function rejectWrite(errors: string[]): never {
  throw invalid(`the stage state would not match its schema: ${errors.join("; ")}`);
}
