/**
 * The human-only workflow the suites drive (ask → check → confirm → commit, so a Run waits for a person and
 * never for an agent), as one parameterised manifest builder, with the review questions and their answer.
 *
 * Manifest format: `src/engine/workflow/manifest.ts`.
 *
 * @module
 */

import type { Question } from "../../src/engine/workflow/manifest.ts";

/** A question of an ask step, exactly as the manifest declares it. */
export type { Question };

/** A check rule: the value at `at` must match `schema`, or the person sees `message`. */
export interface CheckRule {
  at: string;
  schema: Record<string, unknown>;
  message: string;
}

/** What a suite varies in its human-only workflow; every field left out takes the review workflow's value. */
export interface HumanFlowOptions {
  name: string;
  title: string;
  description: string;
  /** The only stage; default `collect`. */
  stage?: string;
  /** Default {@linkcode REVIEW_QUESTIONS}. */
  questions?: Question[];
  /** The stage's state; default a schema for the answers and both kinds of feedback, starting empty. */
  state?: { schema: Record<string, unknown>; initial: Record<string, unknown> };
  /** The check between ask and confirm; default {@linkcode TITLE_RULE}; `null` sends answers straight on. */
  check?: CheckRule | null;
  /** Visit budgets per step; a step left out has none. */
  budgets?: { ask?: number; check?: number; confirm?: number };
  /** The state pointer confirmed and committed (`""` is the whole state); default `/answers`. */
  data?: string;
  /** Where a revision's feedback goes; default `/reviewFeedback`. */
  feedbackTo?: string;
  /** Step ids of the confirmation and the commit; default `confirm` and `commit`. */
  stepIds?: { confirm: string; commit: string };
}

/** The review questions: a written title, a closed colour choice, skippable notes. */
export const REVIEW_QUESTIONS: Question[] = [
  { id: "title", question: "Title?" },
  {
    id: "color",
    question: "Colour?",
    options: [{ id: "red", label: "Red" }, { id: "blue", label: "Blue" }],
  },
  { id: "notes", question: "Notes?", isSkippable: true },
];

/** A valid answer to {@linkcode REVIEW_QUESTIONS}. */
export const REVIEW_ANSWER = [
  { questionId: "title", isSkipped: false, answer: "A fine title" },
  { questionId: "color", isSkipped: false, answer: "Red" },
  { questionId: "notes", isSkipped: true },
];

/** {@linkcode REVIEW_ANSWER} as a Run records it: the colour, sent by its label, kept by its id beside it. */
export const REVIEW_RECORDED = REVIEW_ANSWER.map((answer) =>
  answer.questionId === "color" ? { ...answer, answer: "red", label: "Red" } : answer
);

/** The review check: a title of three characters or more, so a short one loops back to the questions. */
export const TITLE_RULE: CheckRule = {
  at: "/answers/0/answer",
  schema: { type: "string", minLength: 3 },
  message: "title too short",
};

/** A workflow of only human steps: ask, an optional check, confirm, commit, in one stage. */
export function humanFlow(options: HumanFlowOptions) {
  const { confirm: confirmId, commit: commitId } = options.stepIds ??
    { confirm: "confirm", commit: "commit" };
  const data = options.data ?? "/answers";
  const budgets = options.budgets ?? {};
  const check = options.check === undefined ? TITLE_RULE : options.check;
  const budget = (maxVisits?: number) => maxVisits === undefined ? {} : { budget: { maxVisits } };
  const steps: Record<string, unknown> = {
    ask: {
      kind: "ask",
      questions: options.questions ?? REVIEW_QUESTIONS,
      answersTo: "/answers",
      ...budget(budgets.ask),
      routes: { answered: check ? "check" : confirmId },
    },
  };
  if (check) {
    steps.check = {
      kind: "check",
      rules: [check],
      feedbackTo: "/feedback",
      ...budget(budgets.check),
      routes: { valid: confirmId, invalid: "ask" },
    };
  }
  steps[confirmId] = {
    kind: "confirm",
    context: data,
    feedbackTo: options.feedbackTo ?? "/reviewFeedback",
    ...budget(budgets.confirm),
    routes: { confirmed: commitId, revise: "ask" },
  };
  steps[commitId] = { kind: "commit", data, routes: { committed: { endStage: "done" } } };
  return {
    name: options.name,
    title: options.title,
    description: options.description,
    entryStage: options.stage ?? "collect",
    stages: {
      [options.stage ?? "collect"]: {
        state: options.state ?? {
          schema: {
            type: "object",
            properties: {
              answers: { type: "array" },
              feedback: { type: "array", items: { type: "string" } },
              reviewFeedback: { type: "string" },
            },
          },
          initial: {},
        },
        entryStep: "ask",
        steps,
        routes: { done: { end: "completed" } },
      },
    },
  };
}

/** Workflow `brief`: one written answer whose state schema marks it as Markdown, confirmed, then committed. */
export const MARKDOWN_BRIEF = humanFlow({
  name: "brief",
  title: "Brief",
  description: "Asks for a brief in Markdown, has it confirmed, commits it.",
  questions: [{ id: "brief", question: "What is the brief?" }],
  state: {
    schema: {
      type: "object",
      properties: {
        answers: {
          type: "array",
          items: {
            type: "object",
            properties: { answer: { type: "string", contentMediaType: "text/markdown" } },
          },
        },
        reviewFeedback: { type: "string" },
      },
    },
    initial: {},
  },
  check: null,
});

/** Workflow `notes`: one title asked, confirmed and committed (the whole state), published as `publish` says. */
export function publishedNotes(publish: Record<string, unknown>) {
  const manifest = humanFlow({
    name: "notes",
    title: "Notes",
    description: "Asks for a title and publishes it.",
    questions: [{ id: "title", question: "Title?" }],
    check: null,
    data: "",
  });
  Object.assign(manifest.stages.collect, { publish });
  return manifest;
}

/**
 * Workflow `expand`: its one stage commits its initial state (a list of `items` numbers) at once and
 * publishes it at `docs/expand.md` through the template `expand.mustache`, which the caller provides.
 */
export function expandingFlow(items: number) {
  return {
    name: "expand",
    title: "Expand",
    description: "Commits a list from its initial state and publishes it through a template.",
    entryStage: "collect",
    stages: {
      collect: {
        state: {
          schema: { type: "object", properties: { a: { type: "array" } } },
          initial: { a: Array.from({ length: items }, (_, i) => i) },
        },
        entryStep: "commit",
        steps: { commit: { kind: "commit", data: "", routes: { committed: { endStage: "done" } } } },
        routes: { done: { end: "completed" } },
        publish: { path: "docs/expand.md", template: "expand.mustache" },
      },
    },
  };
}

/** The project files that offer {@linkcode expandingFlow} with `template`. */
export function expandingFiles(items: number, template: string): Record<string, string> {
  return { ...workflowFiles(expandingFlow(items)), "workflows/expand/expand.mustache": template };
}

/** Six sections nested over the list: 60⁶ steps over 60 items, which render nothing. */
export const NESTED_SECTIONS = "{{#a}}".repeat(6) + "{{/a}}".repeat(6);

/** The project files that offer `manifest` as a project workflow. */
export function workflowFiles(manifest: { name: string }): Record<string, string> {
  return { [`workflows/${manifest.name}/workflow.json`]: JSON.stringify(manifest, null, 2) };
}

/** The review workflow of the engine and workflow suites, with `overrides` over its top-level fields. */
export function reviewManifest(overrides: Record<string, unknown> = {}) {
  return {
    ...humanFlow({
      name: "review",
      title: "Review",
      description: "Collects a title and a colour, checks and confirms them, commits them.",
      budgets: { ask: 3 },
    }),
    ...overrides,
  };
}

/**
 * Workflow `editing`: an agent step that may write and patch project files, then a `changes` step that
 * writes what changed since `since` into the state, a confirmation of it and its commit.
 */
export function editingFlow(options: { name?: string; since?: "run" | "stage" } = {}) {
  return {
    name: options.name ?? "editing",
    title: "Editing",
    description: "Lets an agent change files, then shows what changed for confirmation.",
    entryStage: "change",
    stages: {
      change: {
        state: { schema: { type: "object", properties: { changes: { type: "object" } } }, initial: {} },
        entryStep: "edit",
        steps: {
          edit: {
            kind: "agent",
            agentId: "editor",
            instructions: "editor.md",
            tools: [
              { id: "read", kind: "read_project_file" },
              { id: "write", kind: "write_project_file" },
              { id: "patch", kind: "patch_project_file" },
            ],
            output: {
              schema: { type: "object", required: ["outcome"], properties: { outcome: { enum: ["done"] } } },
            },
            routes: { done: "changes" },
          },
          changes: {
            kind: "changes",
            since: options.since ?? "stage",
            resultTo: "/changes",
            routes: { changed: "review", unchanged: "review" },
          },
          review: {
            kind: "confirm",
            context: "/changes",
            routes: { confirmed: "commit", revise: "edit" },
          },
          commit: { kind: "commit", data: "/changes", routes: { committed: { endStage: "done" } } },
        },
        routes: { done: { end: "completed" } },
      },
    },
  };
}

/** The project files that offer {@linkcode editingFlow} as a project workflow. */
export function editingFiles(options: Parameters<typeof editingFlow>[0] = {}): Record<string, string> {
  const manifest = editingFlow(options);
  return {
    ...workflowFiles(manifest),
    [`workflows/${manifest.name}/editor.md`]: "# Editor\n\nChange the files the intent asks for.\n",
  };
}
