/**
 * The proof project: a temp project with a project workflow `ledger` (ask → check → confirm → commit) beside
 * the embedded `intent` workflow, and an actor that advances any waiting Run of either one step, as a person
 * and an IDE agent would.
 *
 * @module
 */

import type { Client } from "../support/sdk_test_client.ts";
import type { RunView } from "../../src/engine/views.ts";
import { tempProject } from "../support/service.ts";
import { humanFlow, workflowFiles } from "../support/workflows.ts";
import { handOff, plan, specification } from "../support/intent_agent.ts";
import { type Outcome, tool } from "./probe.ts";
import type { Prng } from "./prng.ts";

/** The project workflow every suite drives: human steps only, with a check that can loop back. */
export const LEDGER_MANIFEST = humanFlow({
  name: "ledger",
  title: "Ledger",
  description: "Asks for an amount and a currency, checks and confirms them, commits them.",
  stage: "entry",
  questions: [
    { id: "amount", question: "Amount?" },
    {
      id: "currency",
      question: "Currency?",
      options: [{ id: "eur", label: "EUR" }, { id: "usd", label: "USD" }],
    },
    { id: "memo", question: "Memo?", isSkippable: true },
  ],
  check: { at: "/answers/0/answer", schema: { type: "string", pattern: "^[0-9]+$" }, message: "digits only" },
  // Long soaks loop through ask, check and confirm many times in one Run.
  budgets: { ask: 1000, check: 1000, confirm: 1000 },
});

/** A project with the ledger workflow, readable files, and the places agent tools must never reach. */
export async function proofProject(): Promise<string> {
  const dir = await tempProject({
    ...workflowFiles(LEDGER_MANIFEST),
    "README.md": "# proof project\n",
    "src/app.ts": "export const answer = 42;\n",
    ".env": "SECRET=do-not-read\n",
    ".env.local": "SECRET=do-not-read\n",
    ".git/config": "[core]\n",
  });
  return dir;
}

/** A commit an answer was acknowledged for: the stage committed with exactly `data`. */
export interface AcknowledgedCommit {
  runId: string;
  flowName: string;
  stageName: string;
  data: unknown;
}

/** One step an actor took: the tool it called last, its outcome, and the commit it caused, if any. */
export interface Advance {
  calls: { name: string; outcome: Outcome }[];
  run?: RunView;
  committed?: AcknowledgedCommit;
}

/**
 * Advances a waiting Run by one wait: answers its questions or confirmation, or claims and completes its agent
 * call, remembering what was submitted so a commit can be checked against it later.
 */
export class Actor {
  /**
   * `submitted` outlives one session (a Run answered before a crash is confirmed after it), so the suite owns
   * it: Run id (or `runId/stage` for agent documents) → what was submitted.
   */
  constructor(
    readonly name: string,
    readonly prng: Prng,
    readonly client: Client,
    readonly submitted: Map<string, unknown>,
    /**
     * The person's own client (an internal endpoint), which answers the actions only a person may answer
     * (`answerFrom: "person"`); without it the actor's client tries, as an agent would, and is refused.
     */
    readonly person?: Client,
  ) {}

  /** Calls a tool (through `client`, the actor's own by default) and records it into `step`. */
  async #call(
    step: Advance,
    name: string,
    args: Record<string, unknown>,
    client = this.client,
  ): Promise<Outcome> {
    const outcome = await tool(client, name, args);
    step.calls.push({ name, outcome });
    return outcome;
  }

  /** Takes the next step of `run`; a Run that is not waiting is left alone. */
  async advance(run: RunView): Promise<Advance> {
    const step: Advance = { calls: [] };
    if (run.status !== "waiting") return step;
    if (run.pendingAgentCall) return await this.#agentStep(step, run);
    const action = run.pendingAction!;
    const answerer = action.answerFrom === "person" ? this.person ?? this.client : this.client;
    if (action.kind === "user_ask_questions") {
      const valid = this.prng.chance(0.85);
      const answer = this.#questionsAnswer(action.request as { questions: { id: string }[] }, valid);
      this.submitted.set(run.runId, recorded(answer));
      const args = { runId: run.runId, actionId: action.id, answer };
      const outcome = await this.#call(step, "answer_ask", args, answerer);
      if (outcome.ok) step.run = (outcome.value as { run: RunView }).run;
      return step;
    }
    const confirmed = this.prng.chance(0.8);
    const answer = confirmed
      ? { isConfirmed: true }
      : { isConfirmed: false, feedback: `revise ${this.name}` };
    const args = { runId: run.runId, actionId: action.id, answer };
    const outcome = await this.#call(step, "answer_ask", args, answerer);
    if (!outcome.ok) return step;
    step.run = (outcome.value as { run: RunView }).run;
    if (confirmed) {
      step.committed = {
        runId: run.runId,
        flowName: run.flowName,
        stageName: run.cursor.stageName,
        data: this.submitted.get(`${run.runId}/${run.cursor.stageName}`) ?? this.submitted.get(run.runId),
      };
    }
    return step;
  }

  /** Claims the agent call, reads the context, submits the stage's document and completes. */
  async #agentStep(step: Advance, run: RunView): Promise<Advance> {
    const callId = run.pendingAgentCall!.id;
    const stage = run.cursor.stageName;
    // Each document names its call, so a commit is traced back to the one submission it came from.
    const document = stage === "plan"
      ? plan(`Plan ${callId}.`, callId)
      : specification([{ id: "R1", statement: `statement ${callId}` }], `Proof ${callId}.`);
    const completed = await handOff((name, args) => this.#call(step, name, args), run, {
      stage: stage === "plan" ? "plan" : "specification",
      document,
      claimId: `${this.name}-${callId}`,
      onSubmitted: () => this.submitted.set(`${run.runId}/${stage}`, document),
    });
    if (completed) step.run = (completed as { run: RunView }).run;
    return step;
  }

  #questionsAnswer(request: { questions: { id: string }[] }, valid: boolean): unknown[] {
    return request.questions.map((question) => {
      if (question.id === "amount") {
        return {
          questionId: "amount",
          isSkipped: false,
          answer: valid ? String(this.prng.int(1, 99999)) : "n/a",
        };
      }
      if (question.id === "currency") {
        return { questionId: "currency", isSkipped: false, answer: this.prng.pick(["EUR", "USD"]) };
      }
      if (question.id === "memo" && this.prng.chance(0.5)) return { questionId: "memo", isSkipped: true };
      return { questionId: question.id, isSkipped: false, answer: `memo ${this.prng.int(0, 1e6)} ✓ ünï` };
    });
  }
}

/** A ledger answer as the Run records it: the currency, sent by its label, kept by its option's id beside it. */
function recorded(answer: unknown[]): unknown[] {
  return answer.map((entry) => {
    const { questionId, answer: label } = entry as { questionId: string; answer?: string };
    return questionId === "currency" ? { ...entry as object, answer: label!.toLowerCase(), label } : entry;
  });
}
