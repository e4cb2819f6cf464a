/**
 * Benchmark fixtures: a human-only workflow (ask → check → confirm → commit) written into a temp project's
 * `workflows/`, its answers, the intent workflow's agent results, and Artifacts seeded straight into a
 * project's store before the service starts.
 *
 * @module
 */

import { Database } from "../../src/store/database.ts";
import { ArtifactStore } from "../../src/store/artifact_store.ts";
import { weftPaths } from "../../src/service/paths.ts";

/** The name of the fixture workflow. */
export const FIXTURE_FLOW = "bench-review";

/** A workflow with only ask / check / confirm / commit steps (manifest format: `src/engine/workflow/manifest.ts`). */
export const FIXTURE_MANIFEST = {
  name: FIXTURE_FLOW,
  title: "Bench review",
  description: "Asks for a title and a colour, checks them, confirms them and commits them.",
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
};

/** The answer to the fixture's questions. */
export const FIXTURE_ANSWER = [
  { questionId: "title", isSkipped: false, answer: "A fine title" },
  { questionId: "color", isSkipped: false, answer: "Red" },
  { questionId: "notes", isSkipped: true },
];

/** Files of a temp project that holds the fixture workflow. */
export function fixtureFiles(): Record<string, string> {
  return { [`workflows/${FIXTURE_FLOW}/workflow.json`]: JSON.stringify(FIXTURE_MANIFEST, null, 2) };
}

/** A specification the intent workflow's schema and check accept. */
export const SPECIFICATION = {
  summary: "Export reports as CSV files.",
  goals: ["Users can export any report as CSV"],
  requirements: [{
    id: "R1",
    statement: "Every report has an Export button",
    acceptance: ["a test proves it"],
  }],
  constraints: ["no new dependency"],
};

/** A plan the intent workflow's schema and check accept. */
export const PLAN = {
  summary: "Add a CSV serializer and an export button.",
  tasks: [{
    id: "T1",
    title: "CSV",
    description: "serializer",
    files: ["src/csv.ts"],
    tests: ["tests/csv_test.ts"],
  }],
  risks: [{ risk: "large reports", mitigation: "stream rows" }],
};

/**
 * Stores `count` Artifacts, each the current revision of a distinct (flowName, stageName) with its Record,
 * through the store module, in the project's `.weft/weft.db` (created and migrated when missing). Run it
 * before `weft serve` starts on the project. 100 stages per flow: `bench-flow-N` / `stage-M`.
 */
export function seedArtifacts(projectDir: string, count: number): void {
  const paths = weftPaths(projectDir);
  Deno.mkdirSync(paths.weftDir, { recursive: true, mode: 0o700 });
  const db = Database.open(paths.database);
  try {
    const store = new ArtifactStore(db);
    const at = new Date().toISOString();
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const n = String(i).padStart(6, "0");
        store.commit({
          artifactId: `art_bench${n}`,
          recordId: `rec_bench${n}`,
          runId: `run_bench${String(Math.floor(i / 100)).padStart(6, "0")}`,
          flowName: `bench-flow-${Math.floor(i / 100)}`,
          stageName: `stage-${i % 100}`,
          data: { summary: `seeded artifact ${i}`, items: [i, i + 1, i + 2] },
          answers: [],
          at,
        });
      }
    });
    const counts = store.counts();
    if (counts.artifacts !== count) throw new Error(`seeded ${counts.artifacts} artifacts, wanted ${count}`);
  } finally {
    db.close();
  }
}
