/**
 * The shapes the page reads from tool results, as docs/reference.md describes them. The page keeps its own
 * copy rather than importing the service's: it is a client like any other and shares no code with the server.
 *
 * @module
 */

/** A Run's status. */
export type RunStatus = "running" | "waiting" | "completed" | "failed" | "cancelled";

/** Every status, in the order the filter lists them. */
export const RUN_STATUSES: readonly RunStatus[] = ["waiting", "running", "completed", "failed", "cancelled"];

/** A business error of a tool call. */
export interface ErrorPayload {
  code: string;
  message: string;
  retryable: boolean;
}

/** A question of a `user_ask_questions` action. */
export interface Question {
  id: string;
  question: string;
  description?: string;
  options?: { id: string; label: string }[];
  allowOther?: boolean;
  isSkippable: boolean;
}

/** What a waiting Run asks of the person. */
export type PendingAction =
  | { id: string; kind: "user_ask_questions"; request: { questions: Question[] }; createdAt: string }
  | {
    id: string;
    kind: "user_ask_confirmation";
    /** `markdown`: the JSON pointers into `context` of the strings that hold Markdown. */
    request: { context: unknown; markdown?: string[] };
    createdAt: string;
  };

/** A Run as `get_run` and `list_runs` return it. */
export interface RunView {
  runId: string;
  flowName: string;
  intent: string;
  status: RunStatus;
  execution: { source: string; agentExecutor: string };
  cursor: { stageName: string; stepName: string };
  pendingAction?: PendingAction;
  pendingAgentCall?: { id: string; agentId: string; phase: string; createdAt: string };
  pendingCommand?: { id: string; phase: string; run: string[] | string; reason?: string; createdAt: string };
  lastError?: ErrorPayload;
  createdAt: string;
  updatedAt: string;
}

/** One timeline event: common fields plus those of its type. */
export interface RunEvent {
  seq: number;
  at: string;
  type: string;
  stageName: string;
  stepName: string;
  [field: string]: unknown;
}

/** A workflow as `list_workflows` returns it. */
export interface WorkflowView {
  name: string;
  title: string;
  description: string;
  stages: string[];
  hasAgentSteps: boolean;
  available: boolean;
  ready: boolean;
  reason?: string;
}

/**
 * An Artifact's metadata, with `data` from `get_artifact`: `createdAt` is when its first revision was
 * committed, `updatedAt` when the revision it holds was.
 */
export interface ArtifactView {
  artifactId: string;
  flowName: string;
  stageName: string;
  revision: number;
  runId: string;
  recordId: string;
  createdAt: string;
  updatedAt: string;
  data?: unknown;
  /** The JSON pointers into `data` of the strings that hold Markdown. */
  markdown?: string[];
  /** Where this revision was published, or why its file was left alone or could not be written. */
  publication?: { path: string; status: "published" | "skipped" | "failed"; message?: string };
}

/** A Record: one commit of a stage, with the answers it came from. */
export interface RecordView {
  recordId: string;
  runId: string;
  flowName: string;
  stageName: string;
  artifactId: string;
  revision: number;
  data: unknown;
  answers: unknown[];
  createdAt: string;
}

/** Whether a Run can be resumed with `retry_run`: it stopped, or waits on a command to trust first. */
export function canRetry(run: RunView): boolean {
  if (run.status === "waiting") return run.pendingCommand?.phase === "untrusted";
  return run.status === "failed" && ["RUN_INTERRUPTED", "MODEL_UNAVAILABLE", "COMMAND_UNAVAILABLE"]
    .includes(run.lastError?.code ?? "");
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
