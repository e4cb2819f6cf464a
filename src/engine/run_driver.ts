/**
 * Moves one Run through its workflow: enters steps, executes the ones that decide on their own (`check`,
 * `commit`), publishes the waits (`agent`, `ask`, `confirm`), follows outcome routes across stages and enforces
 * budgets. It mutates the Run in memory and queues timeline events; the engine persists both in one
 * transaction.
 *
 * @module
 */
import { z } from "zod";
import { type ErrorCode, invalid, WeftError } from "../errors.ts";
import type { ArtifactStorage } from "./storage.ts";
import type { NewRunEvent, RunState } from "./run_state.ts";
import { publishQuestions } from "./answers.ts";
import { newId } from "./ids.ts";
import { compileSchema } from "./json_schema.ts";
import { getAt, setAt } from "./json_pointer.ts";
import type { LoadedWorkflow } from "./workflow/loader.ts";
import { Question, type StageDef, type StepDef } from "./workflow/manifest.ts";

/** How many times one Run may enter a step that declares no budget. */
export const DEFAULT_MAX_VISITS = 25;

/** One change to a Run in progress. */
export class RunDriver {
  readonly events: NewRunEvent[] = [];

  constructor(
    readonly workflow: LoadedWorkflow,
    readonly run: RunState,
    readonly at: string,
    readonly artifacts: ArtifactStorage,
  ) {
    run.updatedAt = at;
  }

  /** The current stage definition. */
  get stage(): StageDef {
    return this.workflow.manifest.stages[this.run.stageName];
  }

  /** The current step definition; `CONFLICT` when a reload removed it. */
  get step(): StepDef {
    const step = this.stage?.steps[this.run.stepName];
    if (!step) {
      throw new WeftError(
        "CONFLICT",
        `workflow "${this.run.flowName}" no longer has step ${this.run.stageName}/${this.run.stepName}`,
      );
    }
    return step;
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

  /** Starts the Run in the workflow's entry stage. */
  start(): void {
    this.#enterStage(this.workflow.manifest.entryStage);
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
    const verdict = compileSchema(this.stage.state.schema)(candidate);
    if (verdict.ok) this.run.state = candidate;
    return verdict;
  }

  /** Ends the Run as failed. */
  fail(code: ErrorCode, message: string, retryable = false): void {
    this.run.status = "failed";
    this.run.lastError = { code, message, retryable };
    delete this.run.pendingAction;
    delete this.run.pendingAgentCall;
    this.record("run_failed", { error: this.run.lastError });
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
        this.#wait();
        this.run.pendingAgentCall = {
          id: newId("call"),
          agentId: step.agentId,
          phase: "available",
          createdAt: this.at,
        };
        this.record("agent_call_started", { callId: this.run.pendingAgentCall.id, agentId: step.agentId });
        return undefined;
      case "ask":
        return this.#ask(step);
      case "confirm":
        this.#publishAction("user_ask_confirmation", {
          context: getAt(this.run.state, step.context) ?? null,
        });
        return undefined;
      case "check":
        return this.#check(step);
      case "commit":
        return this.#commit(step);
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
    const feedback: string[] = [];
    for (const rule of step.rules) {
      const value = getAt(this.run.state, rule.at);
      const verdict = value === undefined
        ? { ok: false as const, errors: [`${rule.at || "/"}: missing`] }
        : compileSchema(rule.schema)(value);
      if (verdict.ok) continue;
      if (rule.message) feedback.push(rule.message);
      else {feedback.push(...verdict.errors.map((error) =>
          error.startsWith("/:") ? rule.at + error.slice(1) : rule.at + error
        ));}
    }
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
    const { artifact, record } = this.artifacts.commit({
      artifactId: newId("art"),
      recordId: newId("rec"),
      runId: this.run.runId,
      flowName: this.run.flowName,
      stageName: this.run.stageName,
      data,
      answers: this.run.stageAnswers,
      at: this.at,
    });
    this.record("artifact_committed", {
      artifactId: artifact.artifactId,
      revision: artifact.revision,
      recordId: record.recordId,
    });
    return "committed";
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

/** Throws `INVALID_REQUEST` listing the stage-schema violations of a rejected write. */
export function rejectWrite(errors: string[]): never {
  throw invalid(`the stage state would not match its schema: ${errors.join("; ")}`);
}
