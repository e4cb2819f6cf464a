/**
 * Publishing a committed Artifact to its project file, after the commit's transaction: a file write cannot be
 * rolled back, so it comes last, and whatever happens to it the commit stands. The commit's transaction
 * stores the publication as pending, and the transaction that records its outcome removes it, so one cut
 * short (a kill while rendering or writing) is finished at the next start, once. A file is written only
 * where weft wrote last (its digest unchanged) or where there is none; a file a person edited since, or one
 * weft never wrote, is left as it is. A file that already holds the very document is published (a write
 * the kill cut short before its record). The one exception is a confirmed revision of that edit
 * (`revision.ts`): it replaces the file as the person left it, and nothing else. The content the decision
 * was made on is checked again by the write itself right before the file is replaced, so an edit made
 * meanwhile is not lost. The outcome is one timeline event: `artifact_published`, `publish_skipped` (with
 * the reason) or `publish_failed` (with a classified error).
 *
 * @module
 */
import { errorKind, errorPayload, WeftError } from "../errors.ts";
import type { DecidedCommit, DecidedPublication } from "./commit_step.ts";
import type { NewRunEvent, RunState } from "./run_state.ts";
import { type DocumentOrigin, renderDocument } from "./published_document.ts";
import type { ProjectFiles } from "./project_files.ts";
import type { PublicationRecord, Storage, StorageUnit } from "./storage.ts";
import type { ArtifactView, PublicationDriftView, RunEventView } from "./views.ts";
import { sha256Hex } from "../lib/sha256.ts";

/** Why a publication left the file as it was. */
export type SkipReason = "edited" | "not_written_by_weft";

/** What one publication did, as its timeline event says it. */
export type PublicationOutcome =
  | { type: "artifact_published"; path: string; digest: string }
  | { type: "publish_skipped"; path: string; reason: SkipReason; message: string }
  | { type: "publish_failed"; path: string; error: { code: string; message: string; retryable: boolean } };

/**
 * A publication the state machine decided, with the Artifact revision its commit stored: what is kept as
 * pending until its outcome is recorded (JSON; the data is the Artifact revision's).
 */
export interface CommittedPublication {
  decided: DecidedPublication;
  origin: DocumentOrigin;
  /** Where the commit happened, for the timeline event of the publication. */
  stageName: string;
  stepName: string;
}

/** The publication of `decided` (a commit that declares one), once the store gave its Artifact a revision. */
export function committedPublication(
  run: RunState,
  decided: DecidedCommit,
  stored: { artifactId: string; revision: number },
): CommittedPublication {
  const { commit, event } = decided;
  return {
    decided: decided.publication!,
    origin: {
      flowName: run.flowName,
      stageName: commit.stageName,
      artifactId: stored.artifactId,
      revision: stored.revision,
      runId: run.runId,
      version: run.version ?? "",
    },
    stageName: String(event.stageName),
    stepName: String(event.stepName),
  };
}

/** Stores `publication` as one to do, in the transaction of the commit that decided it. */
export function addPending(unit: StorageUnit, publication: CommittedPublication): Promise<void> {
  const { artifactId, revision, runId } = publication.origin;
  return unit.publications.addPending({ artifactId, revision, runId, job: publication });
}

/**
 * Finishes one pending publication of the committed `data`: renders it outside any unit of work (bounded,
 * but no reason to hold other operations), then, if it is still pending, writes, records and removes it in
 * one transaction. Returns its timeline event, or undefined when it was finished already.
 */
export function finishPublication(
  storage: Storage,
  files: ProjectFiles,
  publication: CommittedPublication,
  data: unknown,
  now: () => string,
  log: (event: Record<string, unknown>) => void,
): Promise<NewRunEvent | undefined> {
  return finishRendered(storage, files, publication, renderPublication(publication, data), now, log);
}

/**
 * Finishes the publications a kill cut short, oldest first, each as {@linkcode finishPublication} does;
 * returns their timeline events. One whose Artifact revision is no longer stored fails with that reason.
 */
export async function finishPending(
  storage: Storage,
  files: ProjectFiles,
  now: () => string,
  log: (event: Record<string, unknown>) => void,
): Promise<NewRunEvent[]> {
  const events: NewRunEvent[] = [];
  for (const pending of await storage.read((unit) => unit.publications.listPending())) {
    const publication = pending.job as CommittedPublication;
    const artifact = await storage.read((unit) =>
      unit.artifacts.findArtifact({ artifactId: pending.artifactId }, pending.revision)
    );
    const rendered: Rendered = artifact ? renderPublication(publication, artifact.data) : {
      failed: failedOutcome(
        publication.decided.path,
        new WeftError("PUBLISH_FAILED", `revision ${pending.revision} of its Artifact is no longer stored`),
      ),
    };
    const event = await finishRendered(storage, files, publication, rendered, now, log);
    if (event) events.push(event);
  }
  return events;
}

/** Writes, records and removes `publication` in one transaction, if it is still pending. */
async function finishRendered(
  storage: Storage,
  files: ProjectFiles,
  publication: CommittedPublication,
  rendered: Rendered,
  now: () => string,
  log: (event: Record<string, unknown>) => void,
): Promise<NewRunEvent | undefined> {
  const { artifactId, revision } = publication.origin;
  return await storage.transaction(async (unit) => {
    if (!await unit.publications.removePending(artifactId, revision)) return undefined;
    return await writePublication(unit, files, publication, rendered, now(), log);
  });
}

/** What a publication writes: its document, or the outcome of a render that failed. */
type Rendered = { document: string } | { failed: PublicationOutcome };

/** The document of `publication` over `data`, or `publish_failed` when its template fails or passes a bound. */
function renderPublication(publication: CommittedPublication, data: unknown): Rendered {
  const { decided, origin } = publication;
  try {
    return { document: renderDocument(origin, data, decided) };
  } catch (error) {
    return { failed: failedOutcome(decided.path, error) };
  }
}

/**
 * Publishes one rendered publication inside `unit`: compares the file with what weft last wrote there,
 * writes it or leaves it, records the digest of a write and appends the outcome to the Run's timeline;
 * returns that event.
 */
async function writePublication(
  unit: StorageUnit,
  files: ProjectFiles,
  publication: CommittedPublication,
  rendered: Rendered,
  at: string,
  log: (event: Record<string, unknown>) => void,
): Promise<NewRunEvent> {
  const { decided, origin, stageName, stepName } = publication;
  const { artifactId, revision, runId } = origin;
  const outcome = "failed" in rendered
    ? rendered.failed
    : await publishFile(files, decided, rendered.document, await unit.publications.find(decided.path), log);
  if (outcome.type === "artifact_published") {
    await unit.publications.save({
      path: outcome.path,
      digest: outcome.digest,
      artifactId,
      revision,
      runId,
      at,
    });
  }
  const event: NewRunEvent = { ...outcome, at, stageName, stepName, artifactId, revision };
  await unit.runs.appendEvents(runId, [event]);
  return event;
}

/**
 * Writes one rendered `document`. `last` is what weft last wrote at the path. Never throws: a failure is
 * the `publish_failed` outcome, and `log` gets its kind.
 */
async function publishFile(
  files: ProjectFiles,
  decided: DecidedPublication,
  document: string,
  last: PublicationRecord | undefined,
  log: (event: Record<string, unknown>) => void,
): Promise<PublicationOutcome> {
  const { path } = decided;
  try {
    const current = await files.read(path);
    const digest = current === null ? null : sha256Hex(current);
    const written = sha256Hex(document);
    // Only a write of this very publication, cut short before its outcome was recorded, leaves this content.
    if (digest === written) return { type: "artifact_published", path, digest: written };
    if (current !== null && last === undefined) {
      return skipped(
        path,
        "not_written_by_weft",
        `${path} exists and weft did not write it; it was left as it is`,
      );
    }
    if (digest !== null && digest !== last!.digest && digest !== decided.replaces) {
      return skipped(
        path,
        "edited",
        decided.replaces === undefined
          ? `${path} was changed since weft wrote revision ${last!.revision}; it was left as it is`
          : `${path} was changed again after this revision started from it; it was left as it is`,
      );
    }
    try {
      await files.write(path, document, { unchangedFrom: digest });
    } catch (error) {
      if (error instanceof WeftError && error.code === "CONFLICT") {
        return skipped(path, "edited", `${path} was changed while weft was writing it; it was left as it is`);
      }
      throw error;
    }
    return { type: "artifact_published", path, digest: written };
  } catch (error) {
    if (!(error instanceof WeftError)) log({ event: "publish_failed", path, ...errorKind(error) });
    return failedOutcome(path, error);
  }
}

/** `publish_failed` at `path`, classified: a WeftError's message, or only that the file could not be written. */
function failedOutcome(path: string, error: unknown): PublicationOutcome {
  const failure = error instanceof WeftError
    ? new WeftError("PUBLISH_FAILED", error.message)
    : new WeftError("PUBLISH_FAILED", `${path} could not be written`);
  return { type: "publish_failed", path, error: errorPayload(failure) };
}

function skipped(path: string, reason: SkipReason, message: string): PublicationOutcome {
  return { type: "publish_skipped", path, reason, message };
}

const STATUS_OF: Record<PublicationOutcome["type"], NonNullable<ArtifactView["publication"]>["status"]> = {
  artifact_published: "published",
  publish_skipped: "skipped",
  publish_failed: "failed",
};

/** Where the revision of `artifact` was published, by the timeline of the Run that committed it. */
export function publicationOf(
  artifact: ArtifactView,
  timeline: RunEventView[],
): ArtifactView["publication"] | undefined {
  const event = timeline.findLast((entry) =>
    Object.hasOwn(STATUS_OF, entry.type) && entry.artifactId === artifact.artifactId &&
    entry.revision === artifact.revision
  );
  if (!event) return undefined;
  const message = event.type === "publish_skipped"
    ? String(event.message)
    : event.type === "publish_failed"
    ? String((event.error as { message?: unknown })?.message)
    : undefined;
  return {
    path: String(event.path),
    status: STATUS_OF[event.type as PublicationOutcome["type"]],
    ...(message === undefined ? {} : { message }),
  };
}

/** How many published files one drift check compares, so a status stays quick in a project with many. */
export const MAX_DRIFT_CHECKS = 200;

/**
 * The published files that are no longer what weft wrote (edited or removed), of the first
 * {@linkcode MAX_DRIFT_CHECKS} records; a file that cannot be read counts as edited.
 */
export async function driftOf(
  files: ProjectFiles,
  written: PublicationRecord[],
): Promise<PublicationDriftView[]> {
  const changed: PublicationDriftView[] = [];
  for (const record of written.slice(0, MAX_DRIFT_CHECKS)) {
    const current = await files.read(record.path).catch(() => undefined);
    if (current !== undefined && current !== null && sha256Hex(current) === record.digest) continue;
    const { path, artifactId, revision } = record;
    changed.push({ path, artifactId, revision, state: current === null ? "missing" : "edited" });
  }
  return changed;
}
