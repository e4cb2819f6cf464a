/** Shared fixtures of the engine tests: a human-only workflow, engine openers and temp projects. */
import { Engine } from "../../src/engine/engine.ts";
import { embeddedSource } from "../../src/workflows/embedded.ts";
import { EMBEDDED_WORKFLOWS } from "../../src/workflows/embedded.ts";

/** A workflow of only ask / check / confirm / commit steps. */
export function reviewManifest(overrides: Record<string, unknown> = {}) {
  return {
    name: "review",
    title: "Review",
    description: "Collects a title and a colour, checks and confirms them, commits them.",
    entryStage: "collect",
    stages: {
      collect: {
        state: {
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
        steps: {
          ask: {
            kind: "ask",
            questions: [
              { id: "title", question: "Title?" },
              {
                id: "color",
                question: "Colour?",
                options: [{ id: "red", label: "Red" }, { id: "blue", label: "Blue" }],
              },
              { id: "notes", question: "Notes?", isSkippable: true },
            ],
            answersTo: "/answers",
            budget: { maxVisits: 3 },
            routes: { answered: "check" },
          },
          check: {
            kind: "check",
            rules: [{
              at: "/answers/0/answer",
              schema: { type: "string", minLength: 3 },
              message: "title too short",
            }],
            feedbackTo: "/feedback",
            routes: { valid: "confirm", invalid: "ask" },
          },
          confirm: {
            kind: "confirm",
            context: "/answers",
            feedbackTo: "/reviewFeedback",
            routes: { confirmed: "commit", revise: "ask" },
          },
          commit: { kind: "commit", data: "/answers", routes: { committed: { endStage: "done" } } },
        },
        routes: { done: { end: "completed" } },
      },
    },
    ...overrides,
  };
}

/** A valid answer to the review questions. */
export const goodAnswer = [
  { questionId: "title", isSkipped: false, answer: "A fine title" },
  { questionId: "color", isSkipped: false, answer: "Red" },
  { questionId: "notes", isSkipped: true },
];

/** Opens an in-memory engine with the real embedded workflows plus the review fixture. */
export function openEngine(
  options: { projectDir?: string; databasePath?: string; manifest?: unknown } = {},
): Engine {
  return Engine.open({
    projectDir: options.projectDir ?? Deno.makeTempDirSync(),
    databasePath: options.databasePath ?? ":memory:",
    embedded: [...EMBEDDED_WORKFLOWS, embeddedSource("review", options.manifest ?? reviewManifest(), {})],
  });
}

/** Writes files (path → text) under a fresh temp directory and returns it. */
export function tempProject(files: Record<string, string>): string {
  const dir = Deno.makeTempDirSync();
  for (const [path, text] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    Deno.mkdirSync(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(full, text);
  }
  return dir;
}
