/**
 * The engine's change feed: after every committed transaction, one typed change per Run and per Artifact it
 * wrote, in commit order. Listeners are called synchronously right after the commit, so there is no queue
 * that could grow and no reordering; in return a listener must only note what it needs and return (the MCP
 * layer marks its subscriptions dirty and sends later). A listener that throws is logged and skipped.
 *
 * @module
 */

import type { NewRunEvent } from "./run_state.ts";
import type { RunView } from "./views.ts";

/** A Run was created or changed; `run` is its state as committed. */
export interface RunChanged {
  kind: "run";
  run: RunView;
  /** True for the commit that created the Run. */
  created: boolean;
  /** The types of the timeline events the commit added, in order: what happened, not only where it led. */
  eventTypes: readonly string[];
}

/** A stage committed a new revision of its Artifact (revision 1 creates it). */
export interface ArtifactChanged {
  kind: "artifact";
  artifactId: string;
  flowName: string;
  stageName: string;
  revision: number;
  runId: string;
  created: boolean;
}

/** One committed change. */
export type EngineChange = RunChanged | ArtifactChanged;

/** A function told about every committed change. */
export type ChangeListener = (change: EngineChange) => void;

/** The listeners of one engine and the one way to tell them about a commit. */
export class ChangeFeed {
  readonly #listeners = new Set<ChangeListener>();

  constructor(private readonly log: (event: Record<string, unknown>) => void) {}

  /** Adds `listener`; returns the function that removes it (calling it twice is harmless). */
  listen(listener: ChangeListener): () => void {
    // A wrapper per registration, so the same function registered twice is removed once per unsubscribe.
    const registered: ChangeListener = (change) => listener(change);
    this.#listeners.add(registered);
    return () => void this.#listeners.delete(registered);
  }

  /** How many listeners are registered (sessions' subscriptions come and go; this must come back down). */
  get size(): number {
    return this.#listeners.size;
  }

  /** Tells every listener about the changes of one commit, in order. */
  publish(changes: readonly EngineChange[]): void {
    for (const change of changes) {
      for (const listener of this.#listeners) {
        try {
          listener(change);
        } catch (error) {
          this.log({ event: "change_listener_failed", kind: change.kind, error: String(error) });
        }
      }
    }
  }
}

/**
 * What one committed transaction did, as changes: the Artifacts its stage commits wrote (from their
 * `artifact_committed` events), then the Run.
 */
export function commitChanges(
  run: RunView,
  events: readonly NewRunEvent[],
  created: boolean,
): EngineChange[] {
  const changes: EngineChange[] = events
    .filter((event) => event.type === "artifact_committed")
    .map((event) => ({
      kind: "artifact",
      artifactId: String(event.artifactId),
      flowName: run.flowName,
      stageName: String(event.stageName),
      revision: Number(event.revision),
      runId: run.runId,
      created: Number(event.revision) === 1,
    }));
  changes.push({ kind: "run", run, created, eventTypes: events.map((event) => event.type) });
  return changes;
}
