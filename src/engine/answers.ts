/**
 * Validation of human answers (docs/reference.md, "Human actions and their answers"): who may answer, then
 * the answer itself. An answer is checked completely before anything is consumed; the first problem found is
 * reported as `INVALID_REQUEST`.
 *
 * @module
 */
import { invalid, WeftError } from "../errors.ts";
import type { AnswerChannel, AnswerFrom, Source } from "./views.ts";
import type { Question } from "./workflow/manifest.ts";

/** The longest answer or feedback text accepted, in characters. */
export const MAX_ANSWER_CHARS = 10_000;

/** A question as published in a `user_ask_questions` request. */
export interface PublishedQuestion {
  id: string;
  question: string;
  description?: string;
  options?: { id: string; label: string }[];
  /** Present (and true) only when the options are suggestions and a written answer is accepted too. */
  allowOther?: true;
  isSkippable: boolean;
}

/** One entry of a valid questions answer, in question order. */
export interface QuestionAnswer {
  questionId: string;
  isSkipped: boolean;
  /** The written answer, or the chosen option's id (whether its id or its label was sent). */
  answer?: string;
  /** The chosen option's label, for reading; only when an option was chosen. */
  label?: string;
}

/** A valid confirmation answer. */
export interface ConfirmationAnswer {
  isConfirmed: boolean;
  feedback?: string;
}

/**
 * Refuses (`NOT_ALLOWED`) an answer the endpoint `answerer` may not give to a Run started from `runSource`.
 * The IDE's endpoints speak for their agent, and an agent's call cannot authorize a person's answer: they
 * relay answers only for the Runs they started. The internal endpoints are the person's own (the terminal,
 * Studio) and answer any Run.
 */
export function checkAnswerer(run: { runId: string; source: Source }, answerer: Source): void {
  if (answerer !== "agent_ide" || run.source === "agent_ide") return;
  const where = run.source === "studio" ? "in Studio" : "in the terminal";
  throw new WeftError(
    "NOT_ALLOWED",
    `Run ${run.runId} was started ${where}, so only its person answers it: in the terminal ` +
      `(weft attach ${run.runId}) or in Studio, not through the IDE's endpoint`,
  );
}

/** How an answer reached the Run: the endpoint, its channel, and the person's name when known. */
export interface AnswerGiven {
  source: Source;
  channel: AnswerChannel;
  /** Who answered, when the channel knows (the person's name); absent otherwise. */
  by?: string;
}

/** The channel of an answer from `source`: the IDE's endpoints give `form` for their native form, else `relayed`. */
export function answerChannel(source: Source, nativeForm: boolean): AnswerChannel {
  if (source === "cli") return "terminal";
  if (source === "studio") return "studio";
  return nativeForm ? "form" : "relayed";
}

/**
 * Refuses (`NOT_ALLOWED`) a relayed answer to a step only the person answers: the agent that relays could
 * as well have written the answer itself. Nothing is consumed and the Run keeps waiting.
 */
export function checkChannel(
  run: { runId: string },
  step: { title?: string; answerFrom?: AnswerFrom },
  stepName: string,
  channel: AnswerChannel,
): void {
  if (step.answerFrom !== "person" || channel !== "relayed") return;
  const what = step.title ? `"${step.title}"` : `step "${stepName}"`;
  throw new WeftError("NOT_ALLOWED", `${personOnly(run.runId, what)}; answer_ask cannot answer it`);
}

/**
 * Where and how the person answers `what` (a step only they may answer), in words an agent passes on as they
 * are. Studio is named by the command that opens it: its address carries a sign-in ticket no agent may hold.
 */
export function personOnly(runId: string, what: string): string {
  return `Only the person answers ${what} of Run ${runId}: in the terminal with \`weft attach ${runId}\`, ` +
    "in Studio (`weft studio` opens it), or in the IDE's own form where the IDE shows forms";
}

/** Normalizes declared or state-provided questions into their published form. */
export function publishQuestions(questions: Question[]): PublishedQuestion[] {
  return questions.map((q) => ({
    id: q.id,
    question: q.question,
    ...(q.description !== undefined ? { description: q.description } : {}),
    ...(q.options !== undefined ? { options: q.options } : {}),
    ...(q.options !== undefined && q.allowOther ? { allowOther: true as const } : {}),
    isSkippable: q.isSkippable ?? false,
  }));
}

/**
 * Checks a questions answer: the complete array, one entry per question, real ids, no duplicates, skips only
 * where allowed, non-blank answers; a question with options takes one option's id or label, or any written
 * answer where it allows other answers.
 */
export function validateQuestionsAnswer(questions: PublishedQuestion[], answer: unknown): QuestionAnswer[] {
  if (!Array.isArray(answer)) {
    throw invalid(
      "answer must be the complete array [{ questionId, isSkipped, answer? }], one entry per question",
    );
  }
  const byId = new Map(questions.map((q) => [q.id, q]));
  const given = new Map<string, QuestionAnswer>();
  answer.forEach((entry, index) => {
    const at = `answer[${index}]`;
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw invalid(`${at} must be an object`);
    }
    const unknown = Object.keys(entry).filter((key) => !["questionId", "isSkipped", "answer"].includes(key));
    if (unknown.length) throw invalid(`${at} has unknown field(s): ${unknown.join(", ")}`);
    const { questionId, isSkipped, answer: text } = entry as Record<string, unknown>;
    if (typeof questionId !== "string") throw invalid(`${at}.questionId must be a string`);
    const question = byId.get(questionId);
    if (!question) throw invalid(`${at}.questionId "${questionId}" is not a question of this action`);
    if (given.has(questionId)) throw invalid(`${at} answers question "${questionId}" a second time`);
    if (typeof isSkipped !== "boolean") throw invalid(`${at}.isSkipped must be true or false`);
    if (isSkipped) {
      if (!question.isSkippable) throw invalid(`${at}: question "${questionId}" cannot be skipped`);
      if (text !== undefined) throw invalid(`${at}: a skipped question takes no answer`);
      given.set(questionId, { questionId, isSkipped: true });
      return;
    }
    given.set(questionId, { questionId, isSkipped: false, ...checkText(`${at}.answer`, text, question) });
  });
  const missing = questions.filter((q) => !given.has(q.id)).map((q) => `"${q.id}"`);
  if (missing.length) {
    throw invalid(`answer is missing question(s) ${missing.join(", ")}; send one entry per question`);
  }
  return questions.map((q) => given.get(q.id)!);
}

/** Checks a confirmation answer: `isConfirmed`, and non-blank `feedback` when it is false. */
export function validateConfirmationAnswer(answer: unknown): ConfirmationAnswer {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
    throw invalid("answer must be an object { isConfirmed, feedback? }");
  }
  const unknown = Object.keys(answer).filter((key) => key !== "isConfirmed" && key !== "feedback");
  if (unknown.length) throw invalid(`answer has unknown field(s): ${unknown.join(", ")}`);
  const { isConfirmed, feedback } = answer as Record<string, unknown>;
  if (typeof isConfirmed !== "boolean") throw invalid("answer.isConfirmed must be true or false");
  if (feedback !== undefined && typeof feedback !== "string") {
    throw invalid("answer.feedback must be a string");
  }
  if (typeof feedback === "string" && feedback.length > MAX_ANSWER_CHARS) {
    throw invalid(`answer.feedback is longer than ${MAX_ANSWER_CHARS} characters`);
  }
  if (!isConfirmed && !feedback?.trim()) {
    throw invalid("answer.feedback must say what to revise when isConfirmed is false");
  }
  return feedback?.trim() ? { isConfirmed, feedback } : { isConfirmed };
}

/**
 * A non-blank answer within bounds; an option, sent by its id or by its label, is recorded by its id (what
 * workflows route on) with its label beside it, so every client's answer reads and routes alike.
 */
function checkText(
  at: string,
  text: unknown,
  question: PublishedQuestion,
): Omit<QuestionAnswer, "isSkipped" | "questionId"> {
  if (typeof text !== "string" || !text.trim()) throw invalid(`${at} must be a non-blank string`);
  if (text.length > MAX_ANSWER_CHARS) throw invalid(`${at} is longer than ${MAX_ANSWER_CHARS} characters`);
  const options = question.options ?? [];
  // An id wins over a label that happens to spell another option's id.
  const option = options.find((option) => option.id === text) ??
    options.find((option) => option.label === text);
  if (option) return { answer: option.id, label: option.label };
  if (question.options && !question.allowOther) {
    const choices = question.options.map((option) => `"${option.label}"`).join(", ");
    throw invalid(`${at} must be one of the options of "${question.id}": ${choices}`);
  }
  return { answer: text };
}
