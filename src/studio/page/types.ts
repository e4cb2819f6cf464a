/**
 * The shapes the page reads from tool results: the view types every client names (`src/client/views.ts`,
 * defined once by the engine), imported as types only, so the page's bundle carries none of their code. Where
 * the page reads further than the wire's type says (what a pending action asks), the type here narrows it.
 *
 * @module
 */

import type {
  ActionReview,
  ArtifactView,
  PendingActionView,
  PublishedQuestion,
  RecordView,
  ResumableFailure,
  RunEventView,
  RunningCommandOutput,
  RunStatus,
  RunView as WireRunView,
  StreamTail,
  WorkflowView,
} from "../../client/views.ts";
import { RUN_STATUS_NAMES } from "../first_view_html.ts";

export type { ArtifactView, RecordView, RunningCommandOutput, RunStatus, StreamTail, WorkflowView };

/** Every status, in the order the filter lists them. */
export const RUN_STATUSES: readonly RunStatus[] = RUN_STATUS_NAMES;

/** A business error of a tool call, as a Run's `lastError` carries it too. */
export type ErrorPayload = NonNullable<WireRunView["lastError"]>;

/** A question of a `user_ask_questions` action. */
export type Question = PublishedQuestion;

/** What a waiting Run asks of the person: its request as each kind of action publishes it. */
export type PendingAction =
  & Omit<PendingActionView, "kind" | "request">
  & (
    | { kind: "user_ask_questions"; request: { questions: Question[] } & ActionReview }
    | {
      kind: "user_ask_confirmation";
      /** `markdown`: the JSON pointers into `context` of the strings that hold Markdown. */
      request: { context?: unknown; markdown?: string[] } & ActionReview;
    }
  );

/** A Run as `get_run` and `list_runs` return it. */
export type RunView = Omit<WireRunView, "pendingAction"> & { pendingAction?: PendingAction };

/** One timeline event: common fields plus those of its type; every event names its stage and step. */
export type RunEvent = RunEventView & { stageName: string; stepName: string };

/**
 * The failures `retry_run` resumes. The page bundles no server code, so it keeps its own list; a record of the
 * service's type, so that the compiler holds it to exactly the service's list.
 */
const RESUMABLE: Readonly<Record<ResumableFailure, true>> = {
  RUN_INTERRUPTED: true,
  MODEL_UNAVAILABLE: true,
  COMMAND_UNAVAILABLE: true,
};

/** Whether a Run can be resumed with `retry_run`: it stopped, or waits on a command to trust first. */
export function canRetry(run: RunView): boolean {
  if (run.status === "waiting") return run.pendingCommand?.phase === "untrusted";
  return run.status === "failed" && Object.hasOwn(RESUMABLE, run.lastError?.code ?? "");
}

/** Whether a Run can still change (and be cancelled). */
export function isActive(run: RunView): boolean {
  return run.status === "running" || run.status === "waiting";
}

const SOURCE_NAMES: Record<string, string> = { agent_ide: "the IDE", cli: "the CLI", studio: "Studio" };

/** An endpoint source as a person says it ("the IDE", "the CLI", "Studio"). */
export function sourceName(source: unknown): string {
  return SOURCE_NAMES[String(source)] ?? String(source);
}
