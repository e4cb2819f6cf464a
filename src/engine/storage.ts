/**
 * What the engine needs from persistence. The engine owns these interfaces; `src/store/` implements them
 * over SQLite, and the composition root hands the engine an implementation. Every method is synchronous and
 * joins the transaction of {@linkcode Storage.transaction} it is called in.
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
  insert(run: RunState): void;
  /** Saves a changed Run. */
  update(run: RunState): void;
  /** A Run by id, or undefined. */
  find(runId: string): RunState | undefined;
  /** Whether the flow has a running or waiting Run. */
  hasActive(flowName: string): boolean;
  /** One page of Runs, newest first. */
  list(q: { flowName?: string; status?: RunStatus; limit?: number; cursor?: string }): {
    runs: RunState[];
    nextCursor?: string;
  };
  /** Counts of Runs per status. */
  countByStatus(): Record<string, number>;
  /** How many active (running or waiting) Runs each version of each workflow has. */
  activeVersions(): { flowName: string; version: string | null; count: number }[];
  /** The Runs that may still be driven (not completed or cancelled) but name no version yet. */
  unversioned(): RunState[];
  /** Runs that a restart interrupts: running ones, and waiting ones with a pending agent call. */
  listInterruptible(): RunState[];
  /** Appends entries to a Run's timeline. */
  appendEvents(runId: string, events: NewRunEvent[]): void;
  /** A Run's timeline, oldest first. */
  timeline(runId: string): RunEventView[];
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
  commit(c: StageCommit): { artifact: ArtifactView; record: RecordView };
  /** An Artifact with its data, at its current or a given earlier revision; null when there is none. */
  findArtifact(q: ArtifactQuery, revision?: number): ArtifactView | null;
  /** One page of Artifacts (metadata only), most recently created first. */
  list(q: { flowName?: string; stageName?: string; limit?: number; cursor?: string }): {
    artifacts: ArtifactView[];
    nextCursor?: string;
  };
  /** A Record by id, or null. */
  findRecord(recordId: string): RecordView | null;
  /** The data each stage committed in one Run, oldest first (the latest commit per stage). */
  committedByRun(runId: string): { stageName: string; artifactId: string; revision: number; data: unknown }[];
  /** How many Artifacts and Records are stored. */
  counts(): { artifacts: number; records: number };
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
  has(version: string): boolean;
  /** Whether a file content of this digest is stored. */
  hasBlob(digest: string): boolean;
  /** Stores one file content under its digest (a no-op when it is stored already). */
  putBlob(digest: string, bytes: Uint8Array): void;
  /** Stores a definition whose file contents are stored already (a no-op when it is stored already). */
  save(definition: Omit<StoredDefinition, "files"> & { files: Omit<StoredFile, "size">[] }, at: string): void;
  /** The definition of `version`, or undefined. */
  find(version: string): StoredDefinition | undefined;
  /** One stored file content, or undefined. */
  readBlob(digest: string): Uint8Array | undefined;
  /** Drops the definitions no Run names, then the file contents no definition declares; returns the counts. */
  prune(): { definitions: number; blobs: number };
}

/** The engine's storage: Runs, Artifacts, Records and definitions, one transaction at a time. */
export interface Storage {
  readonly runs: RunStorage;
  readonly artifacts: ArtifactStorage;
  readonly definitions: DefinitionStorage;
  /** Runs `work` in one transaction, committed before returning; nested calls join the outer one. */
  transaction<T>(work: () => T): T;
  /** The journal mode reported by `status` (`wal` for a file, `memory` in memory). */
  journalMode(): string;
  /** Closes the storage. */
  close(): void;
}
