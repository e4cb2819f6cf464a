/**
 * Asking a person, at terminal prompts, what a Run's pending action asks, and shaping their words into the
 * exact answer JSON of docs/reference.md. Also shows an action to someone who cannot answer here (a script, a pipe),
 * with the JSON skeleton they would send.
 *
 * @module
 */

import type { PublishedQuestion as Question } from "../../client/views.ts";
import type { PendingActionView } from "../../client/views.ts";
import { readable } from "../../lib/readable.ts";
import { visibleLine } from "../../lib/visible_text.ts";
import { indent, paint, type Stream } from "../terminal/format.ts";
import { pageBlocks } from "../terminal/pager.ts";
import type { Choice, Prompter } from "../terminal/prompt.ts";
import { hasReview, reviewLines } from "./review_text.ts";

/** One entry of a questions answer. */
type QuestionAnswer = { questionId: string; isSkipped: false; answer: string } | {
  questionId: string;
  isSkipped: true;
};

/** Asks the action at prompts; resolves with the answer JSON, or `null` when the input ended first. */
export async function promptAnswer(action: PendingActionView, prompter: Prompter): Promise<unknown | null> {
  const questions = action.kind === "user_ask_questions";
  // Questions of their own need no heading; a confirmation, or questions about a review, get the step's title.
  if (!questions || hasReview(action.request) || titleOf(action, "")) {
    const title = titleOf(action, questions ? "Questions" : "Please confirm:");
    prompter.write(`\n${paint("bold", title, prompter.output)}\n`);
  }
  if (!await showReview(action, prompter)) return null;
  return questions
    ? await promptQuestions(questionsOf(action), prompter)
    : await promptConfirmation(action, prompter);
}

/** Shows what the action asks, for someone who answers elsewhere or by script. */
export function describeAction(action: PendingActionView, stream: Stream = Deno.stdout): string {
  if (action.kind === "user_ask_confirmation") {
    return [
      `${paint("bold", titleOf(action, "Confirm"), stream)} (action ${action.id}):`,
      ...reviewText(action, stream),
      ...(hasContext(action) ? [indent(contextText(action))] : []),
      paint(
        "dim",
        'answer JSON: { "isConfirmed": true } or { "isConfirmed": false, "feedback": "…" }',
        stream,
      ),
    ].join("\n");
  }
  const questions = questionsOf(action);
  const lines = [`${paint("bold", titleOf(action, "Questions"), stream)} (action ${action.id}):`];
  lines.push(...reviewText(action, stream));
  const width = Math.max(...questions.map((q) => q.id.length));
  for (const q of questions) {
    lines.push(
      `  ${paint("bold", q.id.padEnd(width), stream)}  ${q.question}${
        q.isSkippable ? paint("dim", "  (may skip)", stream) : ""
      }`,
    );
    if (q.description) lines.push(indent(q.description, 4));
    if (q.options) lines.push(`    options: ${q.options.map((o) => o.label).join(" | ")}`);
  }
  const skeleton = questions.map((q) => ({ questionId: q.id, isSkipped: false, answer: "…" }));
  lines.push(paint("dim", `answer JSON: ${JSON.stringify(skeleton)}`, stream));
  return lines.join("\n");
}

/** The step's title as the action names it, or `fallback`. */
function titleOf(action: PendingActionView, fallback: string): string {
  const title = (action.request as { title?: unknown } | undefined)?.title;
  return typeof title === "string" && title.trim() ? visibleLine(title) : fallback;
}

/** The whole review of `action` (task, evidence, every file's diff), indented, for a reader who does not page. */
function reviewText(action: PendingActionView, stream: Stream): string[] {
  if (!hasReview(action.request)) return [];
  const { head, files } = reviewLines(action.request, stream);
  return [head, ...files].map((lines) => indent(lines.join("\n")));
}

/** Shows the review of `action` at the prompt: what to judge, then the diff a page at a time. */
async function showReview(action: PendingActionView, prompter: Prompter): Promise<boolean> {
  if (!hasReview(action.request)) return true;
  const { head, files } = reviewLines(action.request, prompter.output);
  prompter.write(head.join("\n") + "\n");
  return await pageBlocks(prompter, files, head.length);
}

function hasContext(action: PendingActionView): boolean {
  const request = action.request as { context?: unknown } | undefined;
  return request !== undefined && "context" in request && !hasReview({ context: request.context });
}

function questionsOf(action: PendingActionView): Question[] {
  return (action.request as { questions?: Question[] })?.questions ?? [];
}

async function promptQuestions(questions: Question[], prompter: Prompter): Promise<QuestionAnswer[] | null> {
  const answers: QuestionAnswer[] = [];
  for (const [index, q] of questions.entries()) {
    const out = prompter.output;
    prompter.write(
      `\n${paint("bold", `? ${q.question}`, out)}${
        paint("dim", `  (${index + 1}/${questions.length})`, out)
      }\n`,
    );
    if (q.description) prompter.write(indent(paint("dim", q.description, out)) + "\n");
    const answer = q.options
      ? await pickOption({ ...q, options: q.options }, prompter)
      : await typeText(q, prompter);
    if (answer === null) return null;
    answers.push(answer);
  }
  return answers;
}

/** The choice that leads to a written answer beside the options. */
const OTHER = Symbol("other");

async function pickOption(q: Question & { options: { id: string; label: string }[] }, prompter: Prompter) {
  q.options.forEach((option, i) => prompter.write(`  ${i + 1}) ${option.label}\n`));
  const choices: Choice<QuestionAnswer>[] = q.options.map((option, i) => ({
    keys: [String(i + 1), option.id, option.label],
    value: { questionId: q.id, isSkipped: false as const, answer: option.label },
  }));
  const skip = { keys: ["s", "skip"], value: { questionId: q.id, isSkipped: true as const } };
  // Where the options are only suggestions, "o" leads to a written answer of the person's own.
  const other: Choice<typeof OTHER> = { keys: ["o", "other"], value: OTHER };
  const range = `1-${q.options.length}`;
  const picked = await prompter.choose<QuestionAnswer | typeof OTHER>(
    `choose ${range}${q.allowOther ? ", o for other" : ""}${q.isSkippable ? ", or s to skip" : ""}: `,
    [...choices, ...(q.allowOther ? [other] : []), ...(q.isSkippable ? [skip] : [])],
  );
  return picked === OTHER ? await typeText({ ...q, isSkippable: false }, prompter) : picked;
}

async function typeText(q: Question, prompter: Prompter): Promise<QuestionAnswer | null> {
  // The hint goes on a line of its own: after the prompt it would stay in front of what the person types.
  if (q.isSkippable) prompter.write(paint("dim", "  (Enter to skip)", prompter.output) + "\n");
  while (true) {
    const typed = await prompter.line("> ");
    if (typed === null) return null;
    if (typed.trim()) return { questionId: q.id, isSkipped: false, answer: typed.trim() };
    if (q.isSkippable) return { questionId: q.id, isSkipped: true };
    prompter.write(paint("yellow", "  an answer is required\n", prompter.output));
  }
}

async function promptConfirmation(action: PendingActionView, prompter: Prompter) {
  const out = prompter.output;
  if (hasContext(action)) prompter.write(indent(contextText(action)) + "\n");
  const decision = await prompter.choose("confirm (y) or revise (r)? ", [
    { keys: ["y", "yes", "confirm"], value: "confirm" as const },
    { keys: ["r", "revise", "n", "no"], value: "revise" as const },
  ]);
  if (decision === null) return null;
  if (decision === "confirm") return { isConfirmed: true };
  while (true) {
    const feedback = await prompter.lines("What should change? (several lines; an empty line ends)");
    if (feedback === null) return null;
    if (feedback.trim()) return { isConfirmed: false, feedback };
    prompter.write(paint("yellow", "  feedback is required to revise\n", out));
  }
}

/**
 * What a confirmation asks to confirm, as readable text (labelled fields, bulleted lists, Markdown fields
 * as plain text), the same rendering as the IDE's form; `--json` keeps the raw data.
 */
function contextText(action: PendingActionView): string {
  const request = action.request as { context?: unknown; markdown?: string[] } | undefined;
  return readable(request?.context, "`--json` shows the raw data", request?.markdown);
}
