/**
 * The engine's own state of one Run: everything it needs to continue the Run, kept by the store as one JSON
 * body (so a Run waiting for a human is pure data), and the mapping from it to the wire {@linkcode RunView}.
 *
 * @module
 */
import type { ErrorPayload } from "../errors.ts";
import type {
  AgentExecutor,
  AnswerChannel,
  PendingActionView,
  PendingAgentCallView,
  PendingCommandView,
  RunStatus,
  RunView,
  Source,
} from "./views.ts";
import { newId } from "./ids.ts";
import { type ListState, toListView } from "./list_state.ts";
import { shortVersion } from "./workflow/short_version.ts";
import type { LoadedWorkflow } from "./workflow/loader.ts";
import type { RevisionOrigin } from "./revision.ts";

/** One human answer given in the current stage, as kept in the Run and copied into its Record. */
export interface StageAnswer {
  actionId: string;
  stepName: string;
  kind: PendingActionView["kind"];
  /** The request answered (questions or confirmation context), so the answer reads on its own. */
  request: unknown;
  answer: unknown;
  source: Source;
  /** How it came; absent on answers stored before weft kept channels. */
  channel?: AnswerChannel;
  /** Who gave it, when known. */
  by?: string;
  at: string;
}

/** The full state of a Run, as the engine changes it and the store keeps it. */
export interface RunState {
  runId: string;
  flowName: string;
  /**
   * The version of the definition this Run is driven by. Absent only on a Run stored before weft kept
   * versions whose workflow could not be loaded since; it is pinned when it is next driven.
   */
  version?: string;
  intent: string;
  status: RunStatus;
  source: Source;
  agentExecutor: AgentExecutor;
  stageName: string;
  stepName: string;
  /** The current stage's JSON state. */
  state: unknown;
  /** Answers given in the current stage. */
  stageAnswers: StageAnswer[];
  /** Visits per `stage/step`, for budgets. */
  visits: Record<string, number>;
  pendingAction?: PendingActionView;
  pendingAgentCall?: PendingAgentCallView;
  pendingCommand?: PendingCommandView;
  /**
   * The project's files as marked when a point of the Run began (`run`, `stage`, a list item), by that
   * point: what a `changes` step compares with (`changes_transitions.ts`). Opaque to everything but the port.
   */
  baselines?: Record<string, string>;
  /** Once completed, what its workflow suggests starting next. */
  next?: RunView["next"];
  /** What the intent named, resolved when the Run started (a workflow with `input`). */
  input?: RunInput;
  /** The items of the list stage the Run works through or last worked through (`list_transitions.ts`). */
  list?: ListState;
  lastError?: ErrorPayload;
  /** What a revision Run revises: an Artifact, from the published file a person edited (`revision.ts`). */
  revision?: RevisionOrigin;
  createdAt: string;
  updatedAt: string;
}

/** What a Run's intent named, resolved when it started (a workflow with `input`): what list stages read. */
export interface RunInput {
  kind: "plan";
  /** For a plan: `{ plan, specification? }`. */
  data: unknown;
  /** The Artifact revision it was read from; a list of its items follows later revisions. */
  source: { artifactId: string; revision: number };
  /** What it is, in a line a person recognizes (a plan: the intent it was made for); the Run's title. */
  title?: string;
}

/** A timeline entry before it gets its sequence number. */
export type NewRunEvent = { type: string; at: string } & Record<string, unknown>;

/** A new Run of `workflow` for `intent`, at its entry stage and step, before anything has happened. */
export function newRunState(
  workflow: LoadedWorkflow,
  { intent, source, agentExecutor, at }: {
    intent: string;
    source: Source;
    agentExecutor: AgentExecutor;
    at: string;
  },
): RunState {
  const { name, entryStage, stages } = workflow.manifest;
  return {
    runId: newId("run"),
    flowName: name,
    intent,
    status: "running",
    source,
    agentExecutor,
    stageName: entryStage,
    stepName: stages[entryStage].entryStep,
    state: null,
    stageAnswers: [],
    visits: {},
    createdAt: at,
    updatedAt: at,
  };
}

/** The public view of a Run. */
export function toRunView(run: RunState): RunView {
  const view: RunView = {
    runId: run.runId,
    flowName: run.flowName,
    ...(run.version ? { version: shortVersion(run.version) } : {}),
    intent: run.intent,
    ...(run.input?.title ? { title: run.input.title } : {}),
    status: run.status,
    execution: { source: run.source, agentExecutor: run.agentExecutor },
    cursor: { stageName: run.stageName, stepName: run.stepName },
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
  };
  if (run.pendingAction) view.pendingAction = run.pendingAction;
  if (run.pendingAgentCall) view.pendingAgentCall = run.pendingAgentCall;
  if (run.pendingCommand) view.pendingCommand = run.pendingCommand;
  if (run.lastError) view.lastError = run.lastError;
  if (run.revision) {
    const { artifactId, fromRevision, path } = run.revision;
    view.revisionOf = { artifactId, fromRevision, path };
  }
  if (run.next) view.next = { ...run.next };
  if (run.list) view.list = toListView(run.list);
  return view;
}
