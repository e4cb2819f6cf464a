/**
 * The wire views of weft (see docs/reference.md): plain JSON shapes that tools return. Each is written once,
 * as a zod schema the MCP layer publishes as an output schema, and its TypeScript type is inferred from that
 * schema, so the type and what the wire promises cannot drift apart. Views never hold a path of the machine
 * or a token.
 *
 * @module
 */
import { z } from "../lib/zod.ts";

/** Every Run status, in display order; `running` and `waiting` are the active ones. */
export const RUN_STATUSES = ["running", "waiting", "completed", "failed", "cancelled"] as const;
/** Schema of {@linkcode RunStatus}. */
export const RunStatusSchema = z.enum(RUN_STATUSES);
/** Lifecycle of a Run. */
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** The statuses in which a Run can still change. */
export const ACTIVE_RUN_STATUSES: readonly RunStatus[] = ["running", "waiting"];

/** Whether a Run in this status can still change: it is `running` or `waiting`. */
export function isActive(status: RunStatus): boolean {
  return ACTIVE_RUN_STATUSES.includes(status);
}

/** Schema of {@linkcode Source}. */
export const SourceSchema = z.enum(["agent_ide", "cli", "studio"]);
/** The endpoint a request came through; only the path decides it. */
export type Source = z.infer<typeof SourceSchema>;

/** Schema of {@linkcode AnswerChannel}. */
export const AnswerChannelSchema = z.enum(["form", "relayed", "terminal", "studio"]);
/**
 * How a person's answer reached the Run: `form` (the IDE showed the person its native form, whichever way its
 * protocol asks for one: elicitation today), `relayed` (the IDE's agent sent it with `answer_ask`), `terminal`
 * (`weft attach`) or `studio`.
 */
export type AnswerChannel = z.infer<typeof AnswerChannelSchema>;

/** Schema of {@linkcode AnswerFrom}. */
export const AnswerFromSchema = z.enum(["person", "person_or_relay"]);
/**
 * Who may give a step's answer: `person` only through a channel the IDE's agent cannot speak in (the IDE's
 * form, the terminal, Studio); `person_or_relay` also through the agent relaying the person's exact answer.
 */
export type AnswerFrom = z.infer<typeof AnswerFromSchema>;

/** Schema of {@linkcode AgentExecutor}. */
export const AgentExecutorSchema = z.enum(["mcp_client", "service"]);
/**
 * Who executes the agent steps of a Run, frozen when the Run is created: an MCP client's agent, or the
 * service's own model. Whoever starts a Run says which (the MCP layer, by the endpoint it came through).
 */
export type AgentExecutor = z.infer<typeof AgentExecutorSchema>;

/** Schema of {@linkcode ActionKind}. */
export const ActionKindSchema = z.enum(["user_ask_questions", "user_ask_confirmation"]);
/** The two kinds of human action a Run can wait for. */
export type ActionKind = z.infer<typeof ActionKindSchema>;

/** Schema of {@linkcode WorkflowOrigin}. */
export const WorkflowOriginSchema = z.enum(["embedded", "project"]);
/** Where a workflow comes from: built into the program, or the project's `workflows/` folder. */
export type WorkflowOrigin = z.infer<typeof WorkflowOriginSchema>;

/** Schema of {@linkcode ErrorPayload}, the `error` of every failed tool call. */
export const ErrorPayloadSchema = z.object({ code: z.string(), message: z.string(), retryable: z.boolean() });

/** Schema of {@linkcode PendingActionView}. */
export const PendingActionViewSchema = z.object({
  id: z.string(),
  kind: ActionKindSchema,
  request: z.unknown(),
  /** Present when only the person may answer: `answer_ask` on the IDE's endpoints is then refused. */
  answerFrom: z.literal("person").optional(),
  createdAt: z.string(),
});
/** A human action a waiting Run publishes. */
export type PendingActionView = z.infer<typeof PendingActionViewSchema>;

/*
 * What a human action's `request` carries besides its questions or context, so that a person can judge it
 * (`action_review.ts` reads it from the Run): the step's `title`, the list `item` it is about, the `evidence`.
 */

/** The list item an action is about. */
export interface ReviewItem {
  id: string;
  title: string;
  /** Which attempt of the item this is. */
  attempt: number;
  /** The item's own description, when it has one (Markdown). */
  description?: string;
  /** The requirements it serves, with their acceptance criteria (a plan's task). */
  requirements?: { id: string; statement: string; acceptance: string[] }[];
}

/** A command's outcome as a person reads it. */
export interface VerifyEvidence {
  /** The program and arguments that ran. */
  run?: string[];
  outcome: "passed" | "failed" | "timed_out";
  exitCode: number | null;
  durationMs: number;
  /** The useful part of its output: a test runner's failures and counts, else its last lines. */
  excerpt: string;
}

/** What changed, as a `changes` step wrote it. */
export interface ChangesEvidence {
  files: { path: string; status: string }[];
  /** Their unified diff. */
  diff: string;
  /** How many bytes of the diff were left out to stay within its bound. */
  cutBytes: number;
}

/** The evidence an action shows. */
export interface Evidence {
  summary?: string;
  verify?: VerifyEvidence;
  changes?: ChangesEvidence;
}

/** What an action request carries besides its questions or context. */
export interface ActionReview {
  title?: string;
  item?: ReviewItem;
  evidence?: Evidence;
}

/** Schema of {@linkcode AgentCallPhase}. */
export const AgentCallPhaseSchema = z.enum(["available", "claimed"]);
/** Whether a pending agent call waits for a claimant or has one. */
export type AgentCallPhase = z.infer<typeof AgentCallPhaseSchema>;

/** Schema of {@linkcode PendingAgentCallView}. */
export const PendingAgentCallViewSchema = z.object({
  id: z.string(),
  agentId: z.string(),
  phase: AgentCallPhaseSchema,
  createdAt: z.string(),
});
/** An agent call a waiting Run publishes for the agent-task protocol. */
export type PendingAgentCallView = z.infer<typeof PendingAgentCallViewSchema>;

/** Schema of {@linkcode CommandPhase}. */
export const CommandPhaseSchema = z.enum(["available", "running", "untrusted"]);
/**
 * Where a pending command stands: `available` (waiting for the service to start it, or for a free slot),
 * `running`, or `untrusted` (the person has not trusted it: `weft trust`, then `weft retry`, or cancel).
 */
export type CommandPhase = z.infer<typeof CommandPhaseSchema>;

/** Schema of {@linkcode PendingCommandView}. */
export const PendingCommandViewSchema = z.object({
  id: z.string(),
  phase: CommandPhaseSchema,
  /** The program and arguments as they run (a project command's name resolved once it starts). */
  run: z.union([z.array(z.string()), z.string()]),
  /** Why it does not run, while `untrusted`. */
  reason: z.string().optional(),
  createdAt: z.string(),
});
/** A command step a waiting Run publishes; the service runs it. */
export type PendingCommandView = z.infer<typeof PendingCommandViewSchema>;

/** Schema of {@linkcode Cursor}. */
export const CursorSchema = z.object({ stageName: z.string(), stepName: z.string() });
/** Where a Run stands: its current stage and step. */
export type Cursor = z.infer<typeof CursorSchema>;

/** Every status a list item can have, in display order. */
export const LIST_ITEM_STATUSES = ["pending", "running", "done", "failed", "skipped", "blocked"] as const;
/** Schema of {@linkcode ListItemStatus}. */
export const ListItemStatusSchema = z.enum(LIST_ITEM_STATUSES);
/**
 * Where one item of a list stage stands: `pending` (not begun), `running` (its steps run now), `done`,
 * `failed` (it ended failed, stopped the list, or its Run was cancelled or failed for good amid it), `skipped` (it ended skipped, or its input dropped it) or
 * `blocked` (an item it depends on did not end `done`, so it never begins).
 */
export type ListItemStatus = z.infer<typeof ListItemStatusSchema>;

/** Schema of {@linkcode ListItemView}. */
export const ListItemViewSchema = z.object({
  /** The item's id, unique in the list. */
  id: z.string(),
  /** A short line naming the item (its `title`, or its id when it has none). */
  title: z.string(),
  status: ListItemStatusSchema,
  /** How many times the item's first step was entered: 1 while its first attempt runs, 0 before it begins. */
  attempts: z.number().int(),
  /** The ids of the items it waits for, as the item names them. */
  dependsOn: z.array(z.string()),
  /** Its last verify (the list's `verifyStep` command), when one ran for it. */
  verify: z.object({
    passed: z.boolean(),
    /** `passed`, `failed` or `timed_out`. */
    outcome: z.string(),
    exitCode: z.number().int().nullable(),
    /** The useful part of its output (a test runner's failures and counts, else its last lines), ≤ 400 characters. */
    summary: z.string(),
    at: z.string(),
  }).optional(),
  /** Why it is `blocked`, `skipped` by its input, or `failed`, in a sentence. */
  reason: z.string().optional(),
  /** How the answer that ended it came (its review's confirmation, or a decision to skip or stop it). */
  decidedBy: z.object({ channel: AnswerChannelSchema, by: z.string().optional() }).optional(),
  /** When it began and ended. */
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
});
/** One item of a list stage, as clients see it. */
export type ListItemView = z.infer<typeof ListItemViewSchema>;

/** Schema of {@linkcode ListView}. */
export const ListViewSchema = z.object({
  /** The list stage these items belong to. */
  stageName: z.string(),
  /** The id of the item whose steps run now, when one does. */
  current: z.string().optional(),
  /** How many items have each status (every status is present, 0 when none). */
  counts: z.object({
    pending: z.number().int(),
    running: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    blocked: z.number().int(),
  }),
  /** Whether an item stopped the list: the items still pending never begin. */
  stopped: z.boolean(),
  /** The Artifact revision the items follow, when they come from one (a plan); it is reread at each item's start. */
  source: z.object({ artifactId: z.string(), revision: z.number().int() }).optional(),
  /** Every item, in the order they run when nothing waits: dependency order, then the list's own order. */
  items: z.array(ListItemViewSchema),
});
/** The progress of the list stage a Run works through (or last worked through). */
export type ListView = z.infer<typeof ListViewSchema>;

/** Schema of {@linkcode RunView}. */
export const RunViewSchema = z.object({
  runId: z.string(),
  flowName: z.string(),
  /** The short version of the definition the Run is driven by (absent on an unpinned Run of an older weft). */
  version: z.string().optional(),
  intent: z.string(),
  /**
   * What the Run works on, in a line, when its intent only names it (a `deliver` Run: the intent its plan
   * was made for); views show it in the intent's place.
   */
  title: z.string().optional(),
  status: RunStatusSchema,
  execution: z.object({ source: SourceSchema, agentExecutor: AgentExecutorSchema }),
  cursor: CursorSchema,
  pendingAction: PendingActionViewSchema.optional(),
  pendingAgentCall: PendingAgentCallViewSchema.optional(),
  pendingCommand: PendingCommandViewSchema.optional(),
  lastError: ErrorPayloadSchema.optional(),
  /** A revision Run: the Artifact it revises, at which revision, from which edited published file. */
  revisionOf: z.object({ artifactId: z.string(), fromRevision: z.number(), path: z.string() }).optional(),
  /** Once it completed, what its workflow suggests starting next: `flowName` with `intent` (this Run's id). */
  next: z.object({ flowName: z.string(), intent: z.string(), say: z.string() }).optional(),
  /** The items of its list stage and how far it is through them, once a list stage was entered. */
  list: ListViewSchema.optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
/** One Run as clients see it. */
export type RunView = z.infer<typeof RunViewSchema>;

/** Schema of {@linkcode WorkflowView}. */
export const WorkflowViewSchema = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  exclusive: z.boolean(),
  stages: z.array(z.string()),
  hasAgentSteps: z.boolean(),
  available: z.boolean(),
  ready: z.boolean(),
  reason: z.string().optional(),
  /** Who executes the agent steps of a Run started here (when it has any): see `executorFor`. */
  agentExecutor: AgentExecutorSchema.optional(),
  source: WorkflowOriginSchema,
  /** The short version of the current definition (when it loaded). */
  version: z.string().optional(),
  /** How many active Runs of this workflow are driven by another version than the current one. */
  olderActiveRuns: z.number().int().optional(),
});
/**
 * One workflow with its availability (it loaded) and readiness (it can run from the asking source). Its
 * wire field `source` is the workflow's {@linkcode WorkflowOrigin}, not a request {@linkcode Source}.
 */
export type WorkflowView = z.infer<typeof WorkflowViewSchema>;

/** Schema of {@linkcode ArtifactView}. */
export const ArtifactViewSchema = z.object({
  artifactId: z.string(),
  flowName: z.string(),
  stageName: z.string(),
  revision: z.number().int(),
  runId: z.string(),
  recordId: z.string(),
  /** When the first revision was committed. */
  createdAt: z.string(),
  /** When the revision this view holds was committed. */
  updatedAt: z.string(),
  data: z.unknown().optional(),
  /** JSON pointers into `data` of the strings its schema marks as Markdown; only with `data`, when any. */
  markdown: z.array(z.string()).optional(),
  /** Where this revision was published, when its stage publishes; only with `data`. */
  publication: z.object({
    /** The project-relative path of the file. */
    path: z.string(),
    /** `published` (written), `skipped` (a person's edit or a file weft did not write was left) or `failed`. */
    status: z.enum(["published", "skipped", "failed"]),
    /** Why it was skipped or failed. */
    message: z.string().optional(),
  }).optional(),
});
/** The current committed output of one (flowName, stageName); `data` only in a detail. */
export type ArtifactView = z.infer<typeof ArtifactViewSchema>;

/** Schema of {@linkcode RecordView}. */
export const RecordViewSchema = z.object({
  recordId: z.string(),
  runId: z.string(),
  flowName: z.string(),
  stageName: z.string(),
  artifactId: z.string(),
  revision: z.number().int(),
  data: z.unknown(),
  answers: z.array(z.unknown()),
  createdAt: z.string(),
});
/** An immutable entry appended when a stage commits. */
export type RecordView = z.infer<typeof RecordViewSchema>;

/** Schema of {@linkcode RunEventView}. */
export const RunEventViewSchema = z.looseObject({ seq: z.number().int(), at: z.string(), type: z.string() });
/** One entry of a Run's timeline, naming the stage and step it happened at; answers carry their `source`. */
export type RunEventView = z.infer<typeof RunEventViewSchema>;

const JsonSchemaObject = z.record(z.string(), z.unknown());

/** Schema of {@linkcode AgentToolView}. */
export const AgentToolViewSchema = z.object({
  id: z.string(),
  kind: z.string(),
  description: z.string(),
  inputSchema: JsonSchemaObject,
  outputSchema: JsonSchemaObject,
});
/** A tool the agent may call during one agent call, as published in its task. */
export type AgentToolView = z.infer<typeof AgentToolViewSchema>;

/** Schema of {@linkcode AgentTaskDefinition}. */
export const AgentTaskDefinitionSchema = z.object({
  runId: z.string(),
  callId: z.string(),
  agentId: z.string(),
  cursor: CursorSchema,
  instructions: z.string(),
  skills: z.array(z.object({
    name: z.string(),
    description: z.string(),
    content: z.string(),
    assets: z.array(z.object({ id: z.string(), name: z.string() })),
  })),
  tools: z.array(AgentToolViewSchema),
  outputSchema: JsonSchemaObject,
  /** In a list stage: the item this call works on (its data as the list holds it) and which attempt this is. */
  item: z.object({ id: z.string(), title: z.string(), attempt: z.number().int(), data: z.unknown() })
    .optional(),
});
/** The task of one agent call: everything the agent needs, never a machine path. */
export type AgentTaskDefinition = z.infer<typeof AgentTaskDefinitionSchema>;

/** Schema of {@linkcode AgentAssetView}. */
export const AgentAssetViewSchema = z.object({
  assetId: z.string(),
  name: z.string(),
  encoding: z.enum(["utf8", "base64"]),
  content: z.string(),
});
/** The content of one declared skill asset. */
export type AgentAssetView = z.infer<typeof AgentAssetViewSchema>;

/** Schema of {@linkcode PublicationDriftView}. */
export const PublicationDriftViewSchema = z.object({
  path: z.string(),
  artifactId: z.string(),
  revision: z.number().int(),
  /** `edited`: the file differs from what weft wrote; `missing`: it is gone. */
  state: z.enum(["edited", "missing"]),
});
/** A published file that is no longer what weft wrote there. */
export type PublicationDriftView = z.infer<typeof PublicationDriftViewSchema>;

/** What `stats()` reports for the `status` tool. */
export interface EngineStats {
  runs: Record<RunStatus, number>;
  artifacts: number;
  records: number;
  workflows: { available: number; unavailable: number };
  storage: { kind: string; journalMode: string };
  /** The files weft published, and those changed or removed since it wrote them. */
  publications: { files: number; changed: PublicationDriftView[] };
}
