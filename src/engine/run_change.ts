/**
 * The state machine of one Run: every change to a Run is a transition of a {@linkcode RunChange}. It starts
 * Runs, enters stages and steps, executes the steps that decide on their own (`check`, and `commit` in
 * `commit_step.ts`), publishes the waits (`ask`, `confirm` here; `agent` and `command` with their other
 * transitions in `agent_call_transitions.ts` and `command_transitions.ts`), works through list stages
 * (`list_transitions.ts`), takes answers, cancellation, retries and restart interruption, follows outcome
 * routes across stages and enforces budgets. It touches no
 * storage and no file: it changes the Run in memory and decides what should follow (timeline events, each
 * stamped with the stage and step it happened at, and the stage commits to store), and the engine applies
 * all of it in one transaction. What it needs of the project's files (a baseline to mark, the changes a
 * `changes` step shows) it queues and stops for (`changes_transitions.ts`); the engine reads them outside
 * any transaction, lets it go on, and applies the whole change once (`run_access.ts`).
 *
 * @module
 */
import { z } from "../lib/zod.ts";
import { conflict, type ErrorCode, invalid, RESUMABLE_FAILURES, WeftError } from "../errors.ts";
import { openAgentCall } from "./agent_call_transitions.ts";
import { openCommand } from "./command_transitions.ts";
import { beginBaseline, openChanges, type ProjectRead } from "./changes_transitions.ts";
import { commitStage, type DecidedCommit, DEFAULT_PUBLISH_FOLDER } from "./commit_step.ts";
import { beginList, endItem, itemStepEntered, type LatestInput, runEnded } from "./list_transitions.ts";
import type { NewRunEvent, RunState } from "./run_state.ts";
import {
  type AnswerGiven,
  checkChannel,
  type PublishedQuestion,
  publishQuestions,
  validateConfirmationAnswer,
  validateQuestionsAnswer,
} from "./answers.ts";
import { newId } from "./ids.ts";
import { actionReview } from "./action_review.ts";
import { compileSchema } from "./json_schema.ts";
import { dataLimits, jsonLargerThan } from "./data_limits.ts";
import { checkFeedback, type CommittedData } from "./check_rules.ts";
import { getAt, setAt } from "./json_pointer.ts";
import { markdownPointers, schemaAt } from "./markdown_fields.ts";
import { type AnswerFrom, isActive, type Source } from "./views.ts";
import { revisionCurrent, writeReview } from "./revision.ts";
import type { LoadedWorkflow } from "./workflow/loader.ts";
import { Question, type StageDef, type StepDef } from "./workflow/manifest.ts";

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

/** One change to a Run. */
export class RunChange {
  readonly events: NewRunEvent[] = [];
  readonly commits: DecidedCommit[] = [];
  /**
   * What must be read from the project's files before this change can be applied, in order; the last may
   * have stopped the change at a `changes` step until it is read (`changes_transitions.ts`).
   */
  readonly projectReads: ProjectRead[] = [];
  /** The latest revision of the Artifact the Run's list follows, when the engine read one for this change. */
  latestInput?: LatestInput;
  /** The latest revision of the Artifact a revision Run revises, as the engine read it for this change. */
  revisedLatest?: number;
  /** What earlier stages of this Run committed, read when a check rule `covers` an earlier stage's list. */
  committed?: CommittedData;

  readonly #workflowOf: () => LoadedWorkflow;
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
    readonly publishFolder: string = DEFAULT_PUBLISH_FOLDER,
  ) {
    this.#workflowOf = workflowOf;
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
    if (this.run.revision) {
      const { artifactId, fromRevision, path } = this.run.revision;
      this.record("revision_started", { artifactId, fromRevision, path });
    }
    beginBaseline(this, "run");
    // The entry step may decide at once (a check, or a list stage's first item): follow what it decided.
    const next = this.#enterStage(this.workflow.manifest.entryStage);
    if (next !== undefined) this.advance(next);
  }

  /**
   * Takes the answer to the pending human action (validated completely first) and continues; the answer
   * keeps how it came (`given`). A relayed answer to a step only the person answers is refused first.
   */
  answer(given: AnswerGiven, raw: unknown): void {
    const { run } = this;
    const action = run.pendingAction!;
    const step = this.step;
    if (step.kind === "ask" || step.kind === "confirm") checkChannel(run, step, run.stepName, given.channel);
    let outcome: string;
    let answer: unknown;
    if (action.kind === "user_ask_questions") {
      const questions = (action.request as { questions: PublishedQuestion[] }).questions;
      answer = validateQuestionsAnswer(questions, raw);
      outcome = "answered";
      if (step.kind === "ask" && step.answersTo !== undefined) this.writeOrReject(step.answersTo, answer);
    } else {
      const confirmation = validateConfirmationAnswer(raw);
      answer = confirmation;
      outcome = confirmation.isConfirmed ? "confirmed" : "revise";
      if (!confirmation.isConfirmed && step.kind === "confirm" && step.feedbackTo !== undefined) {
        this.writeOrReject(step.feedbackTo, confirmation.feedback);
      }
    }
    run.stageAnswers.push({
      actionId: action.id,
      request: action.request,
      stepName: run.stepName,
      kind: action.kind,
      answer,
      ...given,
      at: this.at,
    });
    delete run.pendingAction;
    run.status = "running";
    this.record("action_answered", { actionId: action.id, kind: action.kind, ...given, answer });
    this.advance(outcome);
  }

  /**
   * Cancels an active Run; `CONFLICT` when it has already ended. A cancel is final, so the IDE's endpoints
   * (`agent_ide`) cancel only the Runs started there, never the person's own (`NOT_ALLOWED`).
   */
  cancel(source: Source): void {
    if (source === "agent_ide" && this.run.source !== "agent_ide") {
      const where = this.run.source === "studio" ? "in Studio" : "in the terminal";
      throw new WeftError(
        "NOT_ALLOWED",
        `Run ${this.run.runId} was started ${where}, so only its person cancels it: in the terminal ` +
          `(weft cancel ${this.run.runId}) or in Studio, not through the IDE's endpoint`,
      );
    }
    if (!isActive(this.run.status)) {
      throw conflict(`Run ${this.run.runId} has already ended (${this.run.status})`);
    }
    this.run.status = "cancelled";
    delete this.run.pendingAction;
    delete this.run.pendingAgentCall;
    delete this.run.pendingCommand;
    this.record("run_cancelled", { source });
    runEnded(this, "the Run was cancelled");
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
      // `retry_run` resumes it: a claim is lost with the process, not the work.
      retryable: true,
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
      openCommand(this);
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
    if (kind === "agent") openAgentCall(this);
    else openCommand(this);
  }

  /** Continues after the current step produced `outcome`, until the Run waits or ends. */
  advance(outcome: string): void {
    let next: string | undefined = outcome;
    while (next !== undefined && this.run.status === "running") {
      const route = this.step.routes[next];
      if (typeof route === "string") next = this.enterStep(route);
      else if ("endItem" in route) next = endItem(this, route.endItem);
      else next = this.endStage(route.endStage);
    }
  }

  /** Ends the current stage with `outcome`: enters the stage it routes to, or completes the Run. */
  endStage(outcome: string): string | undefined {
    this.record("stage_ended", { outcome });
    const stageRoute = this.stage.routes[outcome];
    if (typeof stageRoute === "string") return this.#enterStage(stageRoute);
    this.run.status = "completed";
    const next = this.workflow.manifest.next;
    if (next) this.run.next = { ...next, intent: this.run.runId };
    this.record("run_completed");
    return undefined;
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

  /**
   * Ends the Run as failed; its error is `retryable` when retrying can succeed, and always when `retry_run`
   * resumes such a failure (`weft retry` is its fix).
   */
  fail(code: ErrorCode, message: string, retryable = false): void {
    this.run.status = "failed";
    this.run.lastError = { code, message, retryable: retryable || RESUMABLE_FAILURES.includes(code) };
    delete this.run.pendingAction;
    delete this.run.pendingAgentCall;
    delete this.run.pendingCommand;
    this.record("run_failed", { error: this.run.lastError });
    if (!RESUMABLE_FAILURES.includes(code)) runEnded(this, `the Run failed (${code}): ${message}`);
  }

  /** Writes what a client submits into the stage state; `INVALID_REQUEST` when the schema rejects it. */
  writeOrReject(pointer: string, value: unknown): void {
    const verdict = this.tryWriteState(pointer, value);
    if (!verdict.ok) rejectWrite(verdict.errors);
  }

  #enterStage(stageName: string): string | undefined {
    this.run.stageName = stageName;
    this.run.state = structuredClone(this.stage.state.initial);
    this.run.stageAnswers = [];
    this.run.stepName = this.stage.entryStep;
    this.record("stage_entered");
    beginBaseline(this, "stage");
    if (this.stage.forEach) return beginList(this);
    return this.enterStep(this.stage.entryStep);
  }

  /** Enters a step; returns its outcome when it decides at once, undefined when the Run now waits or ended. */
  enterStep(stepName: string): string | undefined {
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
    if (!itemStepEntered(this, stepName)) return undefined;
    switch (step.kind) {
      case "agent":
        openAgentCall(this);
        return undefined;
      case "ask":
        return this.#ask(step);
      case "confirm": {
        if (this.run.revision && (!revisionCurrent(this) || !writeReview(this))) return undefined;
        this.#publishAction(step, "user_ask_confirmation", {
          ...this.#confirmationContext(step),
          ...actionReview(this, step.evidence),
        });
        return undefined;
      }
      case "check":
        return this.#check(step);
      case "commit":
        return commitStage(this, step);
      case "command":
        openCommand(this);
        return undefined;
      case "changes":
        return openChanges(this, step);
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
      return this.writeOrFail(step.answersTo, []) ? "answered" : undefined;
    }
    this.#publishAction(step, "user_ask_questions", {
      questions: publishQuestions(parsed.data),
      ...actionReview(this, step.evidence),
    });
    return undefined;
  }

  /** What a confirm step shows of the stage state: its context, with the pointers of its Markdown. */
  #confirmationContext(
    step: Extract<StepDef, { kind: "confirm" }>,
  ): { context?: unknown; markdown?: string[] } {
    if (step.context === undefined) return {};
    const context = getAt(this.run.state, step.context) ?? null;
    const markdown = markdownPointers(schemaAt(this.stage.state.schema, step.context), context);
    return { context, ...(markdown.length ? { markdown } : {}) };
  }

  #check(step: Extract<StepDef, { kind: "check" }>): string | undefined {
    // What this very change committed counts too: it is stored only once the change is applied.
    const committed = new Map(this.committed);
    for (const { commit } of this.commits) committed.set(commit.stageName, commit.data);
    const feedback = checkFeedback(step.rules, this.run.state, committed);
    const outcome = feedback.length ? "invalid" : "valid";
    this.record("check_evaluated", { outcome, feedback });
    return this.writeOrFail(step.feedbackTo, feedback) ? outcome : undefined;
  }

  /**
   * Writes engine-produced values (answers, feedback, command results); a schema that rejects them is a
   * workflow defect, which fails the Run: false then.
   */
  writeOrFail(pointer: string | undefined, value: unknown): boolean {
    if (pointer === undefined) return true;
    const verdict = this.tryWriteState(pointer, value);
    if (verdict.ok) return true;
    this.fail(
      "INVALID_REQUEST",
      `the stage schema rejects the value written at ${pointer}: ${verdict.errors.join("; ")}`,
    );
    return false;
  }

  #publishAction(
    step: { answerFrom?: AnswerFrom },
    kind: "user_ask_questions" | "user_ask_confirmation",
    request: unknown,
  ): void {
    this.run.status = "waiting";
    this.run.pendingAction = {
      id: newId("act"),
      kind,
      request,
      ...(step.answerFrom === "person" ? { answerFrom: "person" as const } : {}),
      createdAt: this.at,
    };
    this.record("action_requested", { actionId: this.run.pendingAction.id, kind });
  }
}

/** Throws `INVALID_REQUEST` listing the stage-schema violations of a rejected write. */
function rejectWrite(errors: string[]): never {
  throw invalid(`the stage state would not match its schema: ${errors.join("; ")}`);
}
