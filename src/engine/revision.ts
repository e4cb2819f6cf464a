/**
 * A revision Run: a person edited a file weft published, and the edit comes back as the next revision of the
 * same Artifact. It is a Run of the Artifact's own workflow, pinned to a version like any Run, whose only
 * stage is the Artifact's stage with steps derived here instead of its own: an agent step (`revise`) gets
 * the Artifact's current data and the edited file through `run_context` and answers with the new data under
 * the stage's data schema; the stage's check rules on that data (`check`); the person confirms the change
 * shown as diffs (`confirm`); the commit keeps it as the Artifact's next revision (`commit`), published over
 * the edited file, and only over that file as the person left it (`publication.ts`); and only on top of the
 * revision it began from (`revisionCurrent`).
 *
 * Deriving the stage, rather than declaring a revision workflow, keeps one definition per Artifact: the
 * schema, checks, template and publish path are the stage's own, at the version the Run pinned.
 *
 * @module
 */
import { invalid, notFound } from "../errors.ts";
import { getAt } from "./json_pointer.ts";
import type { ProjectFiles } from "./project_files.ts";
import type { PublicationRecord } from "./storage.ts";
import { sha256Hex } from "../lib/sha256.ts";
import { markdownPointers, schemaAt } from "./markdown_fields.ts";
import { renderBody } from "./published_document.ts";
import type { RunChange } from "./run_change.ts";
import type { LoadedWorkflow } from "./workflow/loader.ts";
import type { StageDef, StepDef } from "./workflow/manifest.ts";
import { unifiedDiff } from "../lib/unified_diff.ts";

/** What a revision Run revises, kept in the Run. */
export interface RevisionOrigin {
  artifactId: string;
  stageName: string;
  /** The Artifact's revision when the Run started: the data the agent revises. */
  fromRevision: number;
  /** The published file the person edited. */
  path: string;
  /** The hex SHA-256 of the file as the person left it: the only content the confirmed revision replaces. */
  digest: string;
}

/** What the revision stage starts from: the Artifact's data and the edited file. */
export interface RevisionSeed {
  current: unknown;
  edited: string;
}

/** The agent of a revision Run. */
export const REVISION_AGENT = "reviser";
/** Where the stage state of a revision Run holds the new data the agent proposes. */
export const PROPOSED_DATA = "/proposal/data";
/** How much of each diff the person is shown, in bytes. */
export const REVIEW_DIFF_BYTES = 64 * 1024;

const STEP_NAMES = { revise: "revise", check: "check", confirm: "confirm", commit: "commit" } as const;

/**
 * The person's edit of the published file `path`, which weft last wrote as `record`: that record, and the
 * edit's digest and text.
 * `NOT_FOUND` when weft never published there or the file is gone; `INVALID_REQUEST` when it is as weft wrote
 * it (there is nothing to bring back) or not UTF-8.
 */
export async function readEdit(
  files: ProjectFiles,
  path: string,
  record: PublicationRecord | undefined,
): Promise<{ record: PublicationRecord; digest: string; text: string }> {
  if (!record) throw notFound(`weft did not publish ${path} (a path relative to the project)`);
  const edited = await files.read(path);
  if (edited === null) {
    throw notFound(
      `${path} is gone; weft published revision ${record.revision} there, and there is no edit to bring back`,
    );
  }
  const digest = sha256Hex(edited);
  if (digest === record.digest) {
    throw invalid(
      `${path} is as weft wrote it (revision ${record.revision}); there is no edit to bring back`,
    );
  }
  try {
    return { record, digest, text: new TextDecoder("utf-8", { fatal: true }).decode(edited) };
  } catch {
    throw invalid(`${path} is not UTF-8 text; weft brings back only what it can read`);
  }
}

/** The pointer the stage's first commit step commits, or undefined when the stage commits nothing. */
export function committedPointer(stage: StageDef): string | undefined {
  return Object.values(stage.steps).find((step): step is Extract<StepDef, { kind: "commit" }> =>
    step.kind === "commit"
  )?.data;
}

/**
 * `workflow` as a revision Run of `origin` is driven: one stage, the Artifact's, with the revision steps.
 * `seed` fills the stage state at creation; a Run already created never enters the stage again.
 */
export function revisionWorkflow(
  workflow: LoadedWorkflow,
  origin: RevisionOrigin,
  seed?: RevisionSeed,
): LoadedWorkflow {
  const { stageName } = origin;
  const stage = workflow.manifest.stages[stageName];
  const pointer = stage ? committedPointer(stage) : undefined;
  if (!stage || pointer === undefined) return workflow;
  const dataSchema = schemaAt(stage.state.schema, pointer) ?? {};
  const rules = Object.values(stage.steps).flatMap((step) => step.kind === "check" ? step.rules : [])
    .flatMap((rule) => {
      const inside = pointer === "" || rule.at === pointer || rule.at.startsWith(`${pointer}/`);
      return inside ? [{ ...rule, at: PROPOSED_DATA + rule.at.slice(pointer.length) }] : [];
    });
  const steps: Record<string, StepDef> = {
    [STEP_NAMES.revise]: {
      kind: "agent",
      agentId: REVISION_AGENT,
      instructions: "revise.md",
      tools: [{ id: "run_context", kind: "run_context" }],
      output: {
        schema: {
          type: "object",
          required: ["outcome", "data"],
          properties: { outcome: { type: "string", enum: ["revised"] }, data: dataSchema },
        },
      },
      outputTo: "/proposal",
      routes: { revised: rules.length ? STEP_NAMES.check : STEP_NAMES.confirm },
    },
    [STEP_NAMES.confirm]: {
      kind: "confirm",
      context: "/review",
      feedbackTo: "/reviewFeedback",
      routes: { confirmed: STEP_NAMES.commit, revise: STEP_NAMES.revise },
    },
    [STEP_NAMES.commit]: {
      kind: "commit",
      data: PROPOSED_DATA,
      routes: { committed: { endStage: "revised" } },
    },
  };
  if (rules.length) {
    steps[STEP_NAMES.check] = {
      kind: "check",
      rules,
      feedbackTo: "/feedback",
      routes: { valid: STEP_NAMES.confirm, invalid: STEP_NAMES.revise },
    };
  }
  const revised: StageDef = {
    title: `Revise ${stage.title ?? stageName} from ${origin.path}`,
    ...(stage.publish ? { publish: stage.publish } : {}),
    state: {
      schema: {
        type: "object",
        properties: {
          artifactId: { type: "string" },
          path: { type: "string" },
          fromRevision: { type: "integer" },
          current: {},
          edited: { type: "string", contentMediaType: "text/markdown" },
          proposal: { type: "object", properties: { data: dataSchema } },
          feedback: { type: "array", items: { type: "string" } },
          review: { type: "object" },
          reviewFeedback: { type: "string" },
        },
      },
      initial: seed
        ? { artifactId: origin.artifactId, path: origin.path, fromRevision: origin.fromRevision, ...seed }
        : {},
    },
    entryStep: STEP_NAMES.revise,
    steps,
    routes: { revised: { end: "completed" } },
  };
  const instructions = new Map(workflow.instructions);
  instructions.set(`${stageName}/${STEP_NAMES.revise}`, REVISION_INSTRUCTIONS);
  return {
    ...workflow,
    hasAgentSteps: true,
    instructions,
    manifest: { ...workflow.manifest, entryStage: stageName, stages: { [stageName]: revised } },
  };
}

/**
 * Before the person confirms: what the revision changes, written to the stage state's `review`, which the
 * confirmation shows: the data `before` and proposed (`data`), and two unified diffs. `dataDiff` compares the Artifact's data with the proposed data (as indented JSON);
 * `markdownDiff` compares the body of the edited file with the body the proposed data renders to, so the
 * person sees which of their edits the next revision keeps.
 */
export function writeReview(change: RunChange): boolean {
  const { run } = change;
  const origin = run.revision!;
  const data = getAt(run.state, PROPOSED_DATA);
  const current = getAt(run.state, "/current");
  const edited = String(getAt(run.state, "/edited") ?? "");
  const indented = (value: unknown) => `${JSON.stringify(value ?? null, null, 2)}\n`;
  let proposedBody: string;
  try {
    proposedBody = renderBody(origin.stageName, data, {
      template: change.workflow.templates.get(origin.stageName),
      markdown: markdownPointers(schemaAt(change.stage.state.schema, PROPOSED_DATA), data),
    });
  } catch (error) {
    proposedBody = `(the proposed data does not render: ${error instanceof Error ? error.message : error})\n`;
  }
  return change.writeOrFail("/review", {
    artifactId: origin.artifactId,
    path: origin.path,
    fromRevision: origin.fromRevision,
    dataDiff: unifiedDiff("data.json", indented(current), indented(data), REVIEW_DIFF_BYTES).diff,
    markdownDiff: unifiedDiff(origin.path, bodyOf(edited), proposedBody, REVIEW_DIFF_BYTES).diff,
    before: current,
    data,
  });
}

/**
 * Whether the Artifact a revision Run revises is still at the revision the Run began from. When another Run
 * committed a newer one meanwhile, the proposal was made from data that is no longer current, and committing it
 * as the newest revision would silently drop the newer one: the Run fails with `CONFLICT` instead, naming the
 * newer revision, before the person is asked to confirm it or as the commit is reached. The engine reads the
 * latest revision in the same transaction that would store the commit, so nothing commits in between (a
 * revision Run has no `changes` step, whose read of the project's files would split the change in two).
 */
export function revisionCurrent(change: RunChange): boolean {
  const origin = change.run.revision!;
  const latest = change.revisedLatest;
  if (latest === undefined || latest === origin.fromRevision) return true;
  change.fail(
    "CONFLICT",
    `revision ${latest} of the Artifact was committed after this revision Run began from revision ` +
      `${origin.fromRevision}, so its proposal would discard it; nothing was committed and ${origin.path} is ` +
      `left as it is: run \`weft revise ${origin.path}\` again to bring the edit onto revision ${latest}`,
  );
  return false;
}

/** A published file without its frontmatter. */
export function bodyOf(document: string): string {
  return document.replace(/^---\n[\s\S]*?\n---\n/, "");
}

/** What the revision agent is told; its data comes from `run_context`. */
export const REVISION_INSTRUCTIONS = `# Bring a person's edits back

A person edited the Markdown file weft published from this stage's Artifact. Make the Artifact's next
revision carry their edits.

1. Call \`run_context\`. Its \`state\` holds \`current\` (the Artifact's data now, revision \`fromRevision\`),
   \`edited\` (the file as the person left it, frontmatter included) and \`path\`. When you are asked again,
   \`state.feedback\` lists the checks the last proposal failed and the context's \`feedback\` what the person
   asked for.
2. Complete with \`{ "outcome": "revised", "data": … }\`: \`data\` is the Artifact's data with the person's
   edits carried into the fields they belong to, matching the output schema. Keep everything they did not
   change as it is in \`current\`.

The person confirms the change before it is committed and published over their file.
`;
