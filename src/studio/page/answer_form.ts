/**
 * The form of a Run's pending action: questions (choices, free text, skip where allowed) or a confirmation
 * (its data readable, Confirm, or Revise with feedback). The answer goes through `answer_ask`, the same tool
 * every client uses, so the service records the Studio as its source. An answer that lost the race to
 * another client (CONFLICT) is handed to the Run view, which explains it and shows the new state.
 *
 * @module
 */

import type { ComponentChildren } from "./preact.ts";
import { useRef, useState } from "./preact.ts";
import { connection, StudioError } from "./connection.ts";
import { html } from "./html.ts";
import { Readable } from "./readable.ts";
import { isRevisionContext, RevisionReview } from "./revision_review.ts";
import { hasReview, Review } from "./review_view.ts";
import { visibleLine } from "../../lib/visible_text.ts";
import { isChangesResult } from "../../lib/diff_files.ts";
import type { PendingAction, Question, RunView } from "./types.ts";

/** The step's title, as the action's request names it, or `fallback`. */
function titleOf(request: unknown, fallback: string): string {
  const title = (request as { title?: unknown } | undefined)?.title;
  return typeof title === "string" && title.trim() ? visibleLine(title) : fallback;
}

/** The value of a choice that means "my own answer". */
const OTHER = "\u0000other";

/** The accessible name of the form of `run`'s pending action. */
export function answerFormName(run: RunView): string {
  return `Answer: ${run.cursor.stageName}/${run.cursor.stepName}`;
}

interface FormProps {
  run: RunView;
  action: PendingAction;
  onConflict: (message: string) => void;
  /** Called with true just before an answer is sent, and with false when it was not taken. */
  onSubmitting: (sent: boolean) => void;
}

/** One form for the pending action of `run`. */
export function AnswerForm(props: FormProps): ComponentChildren {
  return props.action.kind === "user_ask_questions"
    ? html`<${QuestionsForm} ...${props} />`
    : html`<${ConfirmForm} ...${props} />`;
}

/** Submits `answer`; returns an error message for the form, or undefined when it went through. */
function useSubmit(props: FormProps) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const submit = async (answer: unknown) => {
    setBusy(true);
    setProblem(undefined);
    props.onSubmitting(true);
    try {
      await connection.call("answer_ask", { runId: props.run.runId, actionId: props.action.id, answer });
    } catch (error) {
      props.onSubmitting(false);
      const failure = error as StudioError;
      if (failure.code === "CONFLICT") props.onConflict(failure.message);
      else setProblem(failure.message);
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, setProblem, submit };
}

interface Entry {
  choice: string;
  text: string;
  skipped: boolean;
}

function QuestionsForm(props: FormProps): ComponentChildren {
  const questions = (props.action.request as { questions: Question[] }).questions;
  const [entries, setEntries] = useState<Record<string, Entry>>(() =>
    Object.fromEntries(questions.map((q) => [q.id, { choice: "", text: "", skipped: false }]))
  );
  const { busy, problem, submit } = useSubmit(props);
  const update = (id: string, change: Partial<Entry>) =>
    setEntries((old) => ({ ...old, [id]: { ...old[id], ...change } }));

  const onSubmit = (event: Event) => {
    event.preventDefault();
    submit(questions.map((q) => {
      const entry = entries[q.id];
      if (entry.skipped) return { questionId: q.id, isSkipped: true };
      // A choice is sent as its label, as the terminal sends it; the Run records its option's id beside it.
      const option = q.options?.find((option) => option.id === entry.choice);
      const answer = option && entry.choice !== OTHER ? option.label : entry.text;
      return { questionId: q.id, isSkipped: false, answer };
    }));
  };

  const request = props.action.request;
  return html`<form class="answer" aria-label=${answerFormName(props.run)} onSubmit=${onSubmit}>
    <h3>${
    titleOf(request, questions.length === 1 ? "A question for you" : `${questions.length} questions for you`)
  }</h3>
    ${hasReview(request) && html`<${Review} request=${request} />`}
    ${
    questions.map((q) =>
      html`<${QuestionField} key=${q.id} question=${q} entry=${entries[q.id]} onChange=${(
        change: Partial<Entry>,
      ) => update(q.id, change)} />`
    )
  }
    ${problem && html`<p role="alert" class="problem">${problem}</p>`}
    <div class="buttons"><button type="submit" disabled=${busy}>Answer</button></div>
  </form>`;
}

function QuestionField(
  props: { question: Question; entry: Entry; onChange: (change: Partial<Entry>) => void },
): ComponentChildren {
  const { question: q, entry, onChange } = props;
  const id = `q-${q.id}`;
  const description = q.description && html`<p class="hint" id=${`${id}-hint`}>${q.description}</p>`;
  const describedBy = q.description ? `${id}-hint` : undefined;
  const skip = q.isSkippable &&
    html`<button type="button" class="skip" aria-pressed=${entry.skipped ? "true" : "false"} onClick=${() =>
      onChange({ skipped: !entry.skipped })}>Skip</button>`;
  const skippedNote = entry.skipped &&
    html`<p class="muted">Skipped: this question is answered as skipped.</p>`;

  if (q.options && q.options.length > 0) {
    return html`<fieldset class="question" disabled=${entry.skipped} aria-describedby=${describedBy}>
      <legend>${q.question}</legend>
      ${description}
      ${
      q.options.map((option) =>
        html`<label key=${option.id} class="choice">
          <input type="radio" name=${id} value=${option.id} required=${!entry.skipped}
            checked=${entry.choice === option.id} onChange=${() => onChange({ choice: option.id })} />
          ${option.label}
        </label>`
      )
    }
      ${
      q.allowOther && html`
        <label class="choice">
                  <input type="radio" name=${id} value=${OTHER} checked=${entry.choice === OTHER}
                    onChange=${() => onChange({ choice: OTHER })} /> Other
                </label>
        <label class="other">Your own answer
                  <input type="text" value=${entry.text} required=${entry.choice === OTHER && !entry.skipped}
                    onInput=${(event: Event) =>
                      onChange({ choice: OTHER, text: (event.currentTarget as HTMLInputElement).value })} />
                </label>
      `
    }
      ${skippedNote}
    </fieldset>
    ${skip}`;
  }
  return html`<div class="question">
    <label for=${id}>${q.question}</label>
    ${description}
    <textarea id=${id} rows="3" required=${!entry
    .skipped} disabled=${entry.skipped} aria-describedby=${describedBy}
      value=${entry.text} onInput=${(event: Event) =>
    onChange({ text: (event.currentTarget as HTMLTextAreaElement).value })}></textarea>
    ${skippedNote}
    ${skip}
  </div>`;
}

function ConfirmForm(props: FormProps): ComponentChildren {
  const request = props.action.request as { context?: unknown; markdown?: string[] };
  const { context, markdown } = request;
  const [feedback, setFeedback] = useState("");
  const feedbackField = useRef<HTMLTextAreaElement>(null);
  const { busy, problem, setProblem, submit } = useSubmit(props);

  const confirm = (event: Event) => {
    event.preventDefault();
    submit({ isConfirmed: true });
  };
  const revise = () => {
    if (!feedback.trim()) {
      setProblem("Write in Feedback what should change, then choose Revise.");
      feedbackField.current?.focus();
      return;
    }
    submit({ isConfirmed: false, feedback });
  };

  return html`<form class="answer" aria-label=${answerFormName(props.run)} onSubmit=${confirm}>
    <h3>${titleOf(request, "Please confirm")}</h3>
    ${hasReview(request) && html`<${Review} request=${request} />`}
    ${
    props.run.revisionOf && isRevisionContext(context)
      ? html`<${RevisionReview} context=${context} />`
      : "context" in request && !isChangesResult(context) && html`
        <div class="context">
          <${Readable} value=${context} level=${4} markdown=${markdown} />
        </div>
      `
  }
    <label for="feedback">Feedback</label>
    <textarea id="feedback" ref=${feedbackField} rows="3" value=${feedback}
      aria-describedby="feedback-hint"
      onInput=${(event: Event) => setFeedback((event.currentTarget as HTMLTextAreaElement).value)}></textarea>
    <p class="hint" id="feedback-hint">Only for Revise: what should change.</p>
    ${problem && html`<p role="alert" class="problem">${problem}</p>`}
    <div class="buttons">
      <button type="submit" disabled=${busy}>Confirm</button>
      <button type="button" disabled=${busy} onClick=${revise}>Revise</button>
    </div>
  </form>`;
}
