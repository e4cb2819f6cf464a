/**
 * What a `commit` step decides: the stage commit (a new revision of the stage's Artifact and its Record),
 * the timeline event that reports it, and where the stage publishes it. The engine stores the commit in the
 * change's transaction and writes the published file after it.
 *
 * @module
 */
import { getAt } from "./json_pointer.ts";
import { newId } from "./ids.ts";
import { markdownPointers, schemaAt } from "./markdown_fields.ts";
import { fillPublishPath, slugOf } from "./publish_path.ts";
import { revisionCurrent } from "./revision.ts";
import type { RunChange } from "./run_change.ts";
import type { NewRunEvent } from "./run_state.ts";
import type { StageCommit } from "./storage.ts";
import type { CommitStepDef } from "./workflow/manifest.ts";

/** The folder `{publishFolder}` names when weft.json does not say. */
export const DEFAULT_PUBLISH_FOLDER = "docs/weft";

/**
 * A stage commit the state machine decided on, with the timeline event that reports it; the engine stores the
 * commit and completes the event with the Artifact id and revision the store assigned.
 */
export interface DecidedCommit {
  commit: StageCommit;
  event: NewRunEvent;
  /** Where the stage publishes this commit, when it declares `publish`; written once the commit is stored. */
  publication?: DecidedPublication;
}

/** A publication the state machine decided on: the file, and how its body is rendered from the committed data. */
export interface DecidedPublication {
  /** The project-relative path, placeholders filled. */
  path: string;
  template?: string;
  /** JSON pointers into the committed data of the strings its schema marks as Markdown. */
  markdown: string[];
  /**
   * A revision Run's: the hex SHA-256 of the person's edit of the file, which this confirmed revision may
   * replace (any other content is still left as it is).
   */
  replaces?: string;
}

/** Commits the stage's data at `step.data`: `committed`, or undefined when there is none (the Run fails). */
export function commitStage(change: RunChange, step: CommitStepDef): string | undefined {
  const { run } = change;
  if (run.revision && !revisionCurrent(change)) return undefined;
  const data = getAt(run.state, step.data);
  if (data === undefined) {
    change.fail("INVALID_REQUEST", `nothing to commit: the stage state has no value at ${step.data || "/"}`);
    return undefined;
  }
  const commit: StageCommit = {
    artifactId: newId("art"),
    recordId: newId("rec"),
    runId: run.runId,
    flowName: run.flowName,
    stageName: run.stageName,
    // Copied: later steps of this same change may replace the state before the engine stores the commit.
    data: structuredClone(data),
    answers: [...run.stageAnswers],
    at: change.at,
  };
  change.record("artifact_committed", { recordId: commit.recordId });
  change.commits.push({ commit, event: change.events.at(-1)!, ...publication(change, step, commit.data) });
  return "committed";
}

/** Where and how the current stage publishes `data`, when it declares `publish`. */
function publication(
  change: RunChange,
  step: CommitStepDef,
  data: unknown,
): { publication?: DecidedPublication } {
  const { stage } = change;
  if (!stage.publish) return {};
  const { flowName, stageName, runId, intent, revision } = change.run;
  // A revision goes back to the file the person edited, wherever the path's placeholders would lead now.
  const path = revision?.path ?? fillPublishPath(stage.publish.path, {
    flowName,
    stageName,
    runId,
    slug: slugOf(intent),
    publishFolder: change.publishFolder,
  });
  const template = change.workflow.templates.get(stageName);
  const markdown = markdownPointers(schemaAt(stage.state.schema, step.data), data);
  return {
    publication: {
      path,
      markdown,
      ...(template === undefined ? {} : { template }),
      ...(revision ? { replaces: revision.digest } : {}),
    },
  };
}
