/**
 * What the engine needs from persistence. The engine owns these interfaces; `src/store/` implements them
 * over SQLite, and the composition root hands the engine an implementation. Every method returns a promise,
 * so that a store across a network (PostgreSQL, say) can implement the same port without touching the
 * engine, and is reached only inside one unit of work, {@linkcode Storage.transaction} or
 * {@linkcode Storage.read}: each engine operation is one such unit, and units of one storage never interleave.
 *
 * @module
 */
import type { NewRunEvent, RunState } from "./run_state.ts";
import type { ArtifactView, RecordView, RunEventView, RunStatus, WorkflowOrigin } from "./views.ts";

/** Selects an Artifact by id or by its (flowName, stageName). */
export type ArtifactQuery = { artifactId: string } | { flowName: string; stageName: string };

/** Runs and their timelines. */
export interface RunStorage {
  /** Inserts a new Run. */
  insert(run: RunState): Promise<void>;
  /** Saves a changed Run. */
  update(run: RunState): Promise<void>;
  /** A Run by id, or undefined. */
  find(runId: string): Promise<RunState | undefined>;
  /** Whether the flow has a running or waiting Run. */
  hasActive(flowName: string): Promise<boolean>;
  /** One page of Runs, newest first. */
  list(q: { flowName?: string; status?: RunStatus; limit?: number; cursor?: string }): Promise<{
    runs: RunState[];
    nextCursor?: string;
  }>;
  /** Counts of Runs per status. */
  countByStatus(): Promise<Record<string, number>>;
  /** How many active (running or waiting) Runs each version of each workflow has. */
  activeVersions(): Promise<{ flowName: string; version: string | null; count: number }[]>;
  /** The Runs that may still be driven (not completed or cancelled) but name no version yet. */
  unversioned(): Promise<RunState[]>;
  /** Runs that a restart interrupts: running ones, and waiting ones with a pending agent call or
   * a pending command the person does not have to act on (not `untrusted`). */
  listInterruptible(): Promise<RunState[]>;
  /** Appends entries to a Run's timeline. */
  appendEvents(runId: string, events: NewRunEvent[]): Promise<void>;
  /** A Run's timeline, oldest first. */
  timeline(runId: string): Promise<RunEventView[]>;
}

/** What one stage commit needs to be stored. */
export interface StageCommit {
  artifactId: string;
  recordId: string;
  runId: string;
  flowName: string;
  stageName: string;
  data: unknown;
  answers: unknown[];
  at: string;
}

/** Artifacts (current output per stage, with earlier revisions) and Records (appended per commit). */
export interface ArtifactStorage {
  /** Writes the stage's Artifact as a new revision and appends its Record; returns both views. */
  commit(c: StageCommit): Promise<{ artifact: ArtifactView; record: RecordView }>;
  /** An Artifact with its data, at its current or a given earlier revision; null when there is none. */
  findArtifact(q: ArtifactQuery, revision?: number): Promise<ArtifactView | null>;
  /** One page of Artifacts (metadata only), most recently created first. */
  list(q: { flowName?: string; stageName?: string; limit?: number; cursor?: string }): Promise<{
    artifacts: ArtifactView[];
    nextCursor?: string;
  }>;
  /** A Record by id, or null. */
  findRecord(recordId: string): Promise<RecordView | null>;
  /** The data each stage committed in one Run, oldest first (the latest commit per stage). */
  committedByRun(
    runId: string,
  ): Promise<{ stageName: string; artifactId: string; revision: number; data: unknown }[]>;
  /** How many Artifacts and Records are stored. */
  counts(): Promise<{ artifacts: number; records: number }>;
}

/** One declared file of a stored definition. */
export interface StoredFile {
  path: string;
  digest: string;
  size: number;
}

/** A workflow definition as stored: everything a Run pinned to its version is driven by. */
export interface StoredDefinition {
  version: string;
  flowName: string;
  origin: WorkflowOrigin;
  manifest: unknown;
  files: StoredFile[];
}

/**
 * Workflow definitions by version, with each file content kept once per digest however many versions share
 * it. A definition stays while a Run names its version.
 */
export interface DefinitionStorage {
  /** Whether the definition of `version` is stored. */
  has(version: string): Promise<boolean>;
  /** Whether a file content of this digest is stored. */
  hasBlob(digest: string): Promise<boolean>;
  /** Stores one file content under its digest (a no-op when it is stored already). */
  putBlob(digest: string, bytes: Uint8Array): Promise<void>;
  /** Stores a definition whose file contents are stored already (a no-op when it is stored already). */
  save(
    definition: Omit<StoredDefinition, "files"> & { files: Omit<StoredFile, "size">[] },
    at: string,
  ): Promise<void>;
  /** The definition of `version`, or undefined. */
  find(version: string): Promise<StoredDefinition | undefined>;
  /** One stored file content, or undefined. */
  readBlob(digest: string): Promise<Uint8Array | undefined>;
  /** Drops the definitions no Run names, then the file contents no definition declares; returns the counts. */
  prune(): Promise<{ definitions: number; blobs: number }>;
}

/** What weft last wrote to one project file, so that a person's edit since is never overwritten. */
export interface PublicationRecord {
  /** The project-relative path. */
  path: string;
  /** The hex SHA-256 of the whole file as weft wrote it. */
  digest: string;
  artifactId: string;
  revision: number;
  runId: string;
  at: string;
}

/**
 * A publication a stage commit decided, stored in the commit's transaction and removed in the one that
 * records its outcome: one still stored was cut short (a kill) and is finished at the next start.
 */
export interface PendingPublication {
  artifactId: string;
  revision: number;
  runId: string;
  /** What the engine needs to finish it, as JSON. */
  job: unknown;
}

/** The files weft published, one record per path, and the publications not finished yet. */
export interface PublicationStorage {
  /** What weft last wrote at `path`, or undefined when it never wrote there. */
  find(path: string): Promise<PublicationRecord | undefined>;
  /** Records a write at its path, replacing the earlier record of that path. */
  save(record: PublicationRecord): Promise<void>;
  /** Every path weft wrote, in path order. */
  list(): Promise<PublicationRecord[]>;
  /** Stores a publication to do. */
  addPending(pending: PendingPublication): Promise<void>;
  /** Removes the publication of that Artifact revision from those to do; whether it was there. */
  removePending(artifactId: string, revision: number): Promise<boolean>;
  /** The publications to do, in the order they were stored. */
  listPending(): Promise<PendingPublication[]>;
}

/** The stores one unit of work reaches. */
export interface StorageUnit {
  readonly runs: RunStorage;
  readonly artifacts: ArtifactStorage;
  readonly definitions: DefinitionStorage;
  readonly publications: PublicationStorage;
}

/** The engine's storage: Runs, Artifacts, Records and definitions, one unit of work at a time. */
export interface Storage {
  /** What kind of store it is, as `status` reports it (`sqlite`). */
  readonly kind: string;
  /**
   * Runs `work` as one transaction, committed before the promise resolves and rolled back when `work`
   * throws. Units of one storage run one after another, never interleaved; `work` must not start another.
   */
  transaction<T>(work: (unit: StorageUnit) => Promise<T>): Promise<T>;
  /** Runs `work`, which only reads, as one unit: it sees no other unit's uncommitted changes. */
  read<T>(work: (unit: StorageUnit) => Promise<T>): Promise<T>;
  /** The journal mode reported by `status` (`wal` for a file, `memory` in memory), fixed once opened. */
  readonly journalMode: string;
  /** Closes the storage once the units under way have ended. */
  close(): Promise<void>;
}
