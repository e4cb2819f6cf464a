/**
 * A pending action as an MCP form, and the person's reply as the answer `answer_ask` takes. Elicitation forms
 * are flat objects of primitive fields, so each question becomes one choice or text field (plus a text field
 * for "Other") and a confirmation becomes a decision with a feedback field.
 *
 * @module
 */

import { invalid } from "../../errors.ts";
import { MAX_ANSWER_CHARS, type PublishedQuestion, type QuestionAnswer } from "../../engine/answers.ts";
import type { PendingActionView, RunView } from "../../engine/views.ts";
import type { ElicitRequestFormParams } from "../sdk.ts";
import type { Endpoint } from "../endpoints.ts";
import { readable } from "../../lib/readable.ts";
import { visibleLine } from "../../lib/visible_text.ts";
import { reviewSummary } from "./review_summary.ts";

type FormSchema = ElicitRequestFormParams["requestedSchema"];
type Field = FormSchema["properties"][string];

/** A form to show a person, and how to read what they submit. */
export interface ActionForm {
  message: string;
  requestedSchema: FormSchema;
  /** The answer for `answer_ask`; `INVALID_REQUEST` when the reply leaves something required open. */
  read(content: Record<string, unknown> | undefined): unknown;
}

/** The longest field title on Codex, which lays fields out narrowly; the full question moves to the description. */
const CODEX_TITLE_CHARS = 40;
/** How much of the intent a form message quotes. */
const INTENT_CHARS = 200;

/** Builds the form for `action` of `run`, shaped for the endpoint's presentation. */
export function actionForm(run: RunView, action: PendingActionView, endpoint: Endpoint): ActionForm {
  const codex = endpoint.presentation === "codex";
  // A review (the task, its evidence, a revision's change) in a few lines, with where to read all of it.
  const review = reviewSummary(run, action.request);
  const form = action.kind === "user_ask_questions"
    ? questionsForm(run, (action.request as { questions: PublishedQuestion[] }).questions, codex, review)
    : confirmationForm(run, action.request as { context?: unknown; markdown?: string[] }, codex, review);
  const title = (action.request as { title?: unknown } | null)?.title;
  if (review !== undefined && typeof title === "string" && title.trim()) {
    form.message = `${visibleLine(title)}. ${form.message}`;
  }
  // Codex shows the server name poorly in its form dialog, so the message starts with it.
  return {
    ...form,
    message: `${codex ? `weft · ${run.flowName} —` : `weft (${run.flowName}):`} ${form.message}`,
  };
}

function questionsForm(
  run: RunView,
  questions: PublishedQuestion[],
  codex: boolean,
  review: string | undefined,
): ActionForm {
  const keys = new KeyAllocator();
  const properties: Record<string, Field> = {};
  const required: string[] = [];
  const readers = questions.map((question, index) => {
    const key = keys.take(question.id, `q${index + 1}`);
    const { title, description } = fieldText(question.question, question.description, codex);
    if (!question.options) {
      const hint = question.isSkippable ? "Leave empty to skip." : undefined;
      properties[key] = {
        type: "string",
        title,
        ...joined(description, hint),
        maxLength: MAX_ANSWER_CHARS,
        ...(question.isSkippable ? {} : { minLength: 1 }),
      };
      if (!question.isSkippable) required.push(key);
      return (content: Record<string, unknown>) =>
        writtenAnswer(question, content[key], title, question.isSkippable);
    }
    const values = new Set(question.options.map((option) => option.id));
    // "Other" only where the engine takes a written answer beside the options.
    const other = question.allowOther ? fresh("other", values) : undefined;
    const skip = question.isSkippable ? fresh("skip", values) : undefined;
    const otherKey = other === undefined ? undefined : keys.take(`${key}_other`, `q${index + 1}_other`);
    properties[key] = {
      type: "string",
      title,
      ...joined(description),
      oneOf: [
        ...question.options.map((option) => ({ const: option.id, title: option.label })),
        ...(other === undefined ? [] : [{ const: other, title: "Other (write it below)" }]),
        ...(skip === undefined ? [] : [{ const: skip, title: "Skip this question" }]),
      ],
    };
    required.push(key);
    if (otherKey !== undefined) {
      properties[otherKey] = {
        type: "string",
        title: codex ? "Other" : `${title} — other`,
        description: "Your own answer, when you chose Other.",
        maxLength: MAX_ANSWER_CHARS,
      };
    }
    return (content: Record<string, unknown>): QuestionAnswer => {
      const choice = content[key];
      if (choice === skip && skip !== undefined) return { questionId: question.id, isSkipped: true };
      if (choice === other && other !== undefined) {
        return writtenAnswer(question, content[otherKey!], "Other", false);
      }
      if (typeof choice !== "string" || !values.has(choice)) {
        throw invalid(`"${title}" needs one of its choices`);
      }
      return { questionId: question.id, isSkipped: false, answer: choice };
    };
  });
  const count = questions.length === 1 ? "one question" : `${questions.length} questions`;
  return {
    message: `Answer ${count} to continue ${where(run)}.${review === undefined ? "" : `\n\n${review}`}`,
    requestedSchema: { type: "object", properties, required },
    read: (content) => readers.map((readAnswer) => readAnswer(content ?? {})),
  };
}

function confirmationForm(
  run: RunView,
  request: { context?: unknown; markdown?: string[] },
  codex: boolean,
  review: string | undefined,
): ActionForm {
  return {
    message: `Review this to continue ${where(run)}.\n\n` +
      `${
        review ?? readable(request.context, undefined, request.markdown)
      }\n\nConfirm to go on, or choose Revise and say what should change.`,
    requestedSchema: {
      type: "object",
      properties: {
        decision: {
          type: "string",
          title: codex ? "Decision" : "Your decision",
          oneOf: [{ const: "confirm", title: "Confirm" }, { const: "revise", title: "Revise" }],
        },
        feedback: {
          type: "string",
          title: codex ? "Feedback" : "What should change",
          description: "Required when you choose Revise.",
          maxLength: MAX_ANSWER_CHARS,
        },
      },
      required: ["decision"],
    },
    read(content) {
      const { decision, feedback } = content ?? {};
      const text = typeof feedback === "string" ? feedback.trim() : "";
      if (decision === "confirm") return text ? { isConfirmed: true, feedback: text } : { isConfirmed: true };
      if (decision !== "revise") throw invalid("the decision must be Confirm or Revise");
      if (!text) throw invalid("Revise needs feedback: say what should change");
      return { isConfirmed: false, feedback: text };
    },
  };
}

function writtenAnswer(
  question: PublishedQuestion,
  value: unknown,
  title: string,
  emptySkips: boolean,
): QuestionAnswer {
  const text = typeof value === "string" ? value.trim() : "";
  if (text) return { questionId: question.id, isSkipped: false, answer: text };
  if (emptySkips && (value === undefined || typeof value === "string")) {
    return { questionId: question.id, isSkipped: true };
  }
  throw invalid(`"${title}" needs an answer`);
}

function fieldText(question: string, description: string | undefined, codex: boolean) {
  if (!codex || question.length <= CODEX_TITLE_CHARS) return { title: question, description };
  const title = `${question.slice(0, CODEX_TITLE_CHARS - 1).trimEnd()}…`;
  return { title, description: description ? `${question}\n${description}` : question };
}

function joined(...parts: (string | undefined)[]): { description?: string } {
  const text = parts.filter(Boolean).join("\n");
  return text ? { description: text } : {};
}

function where(run: RunView): string {
  const intent = (run.title ?? run.intent).trim().replace(/\s+/g, " ");
  const quoted = intent.length <= INTENT_CHARS ? intent : `${intent.slice(0, INTENT_CHARS - 1)}…`;
  return `“${quoted}” (stage ${run.cursor.stageName})`;
}

/** A choice value for a form-only option that no real option id can be mistaken for. */
function fresh(base: string, taken: Set<string>): string {
  let value = `__${base}`;
  while (taken.has(value)) value = `_${value}`;
  return value;
}

/** Field keys: the question id when it is a plain identifier and still free, else a positional key. */
class KeyAllocator {
  #taken = new Set<string>();

  take(preferred: string, fallback: string): string {
    let key = /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(preferred) && !this.#taken.has(preferred)
      ? preferred
      : fallback;
    while (this.#taken.has(key)) key = `_${key}`;
    this.#taken.add(key);
    return key;
  }
}
