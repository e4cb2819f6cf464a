/**
 * What the engine needs from persistence. The engine owns these interfaces; `src/store/` implements them
 * over SQLite, and the composition root hands the engine an implementation. Every method is synchronous and
 * joins the transaction of {@linkcode Storage.transaction} it is called in.
 *
 * @module
 */
import type { NewRunEvent, RunState } from "./run_state.ts";
import type { ArtifactView, RecordView, RunEventView, RunStatus } from "./views.ts";

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

/** The engine's storage: Runs, Artifacts and Records, one transaction at a time. */
export interface Storage {
  readonly runs: RunStorage;
  readonly artifacts: ArtifactStorage;
  /** Runs `work` in one transaction, committed before returning; nested calls join the outer one. */
  transaction<T>(work: () => T): T;
  /** The journal mode reported by `status` (`wal` for a file, `memory` in memory). */
  journalMode(): string;
  /** Closes the storage. */
  close(): void;
}
