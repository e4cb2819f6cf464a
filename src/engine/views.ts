/**
 * The wire views of weft (SPEC §3): plain JSON shapes that tools return, with zod schemas the MCP layer uses
 * as output schemas. Views never hold a path of the machine or a token.
 *
 * @module
 */
import { z } from "zod";
import type { ErrorPayload } from "../errors.ts";

/** Lifecycle of a Run; `running` and `waiting` are the active ones. */
export type RunStatus = "running" | "waiting" | "completed" | "failed" | "cancelled";
/** Every Run status, in display order. */
export const RUN_STATUSES: readonly RunStatus[] = ["running", "waiting", "completed", "failed", "cancelled"];
/** The endpoint a request came through; only the path decides it. */
export type Source = "agent_ide" | "cli" | "studio";
/** Who executes the agent steps of a Run, frozen when the Run is created. */
export type AgentExecutor = "mcp_client" | "service";
/** The two kinds of human action a Run can wait for. */
export type ActionKind = "user_ask_questions" | "user_ask_confirmation";

/** A human action a waiting Run publishes. */
export interface PendingActionView {
  id: string;
  kind: ActionKind;
  request: unknown;
  createdAt: string;
}

/** An agent call a waiting Run publishes for the agent-task protocol. */
export interface PendingAgentCallView {
  id: string;
  agentId: string;
  phase: "available" | "claimed";
  createdAt: string;
}

/** One Run as clients see it. */
export interface RunView {
  runId: string;
  flowName: string;
  intent: string;
  status: RunStatus;
  execution: { source: Source; agentExecutor: AgentExecutor };
  cursor: { stageName: string; stepName: string };
  pendingAction?: PendingActionView;
  pendingAgentCall?: PendingAgentCallView;
  lastError?: ErrorPayload;
  createdAt: string;
  updatedAt: string;
}

/** One workflow with its availability (it loaded) and readiness (it can run from the asking source). */
export interface WorkflowView {
  name: string;
  title: string;
  description: string;
  exclusive: boolean;
  stages: string[];
  hasAgentSteps: boolean;
  available: boolean;
  ready: boolean;
  reason?: string;
  source: "embedded" | "project";
}

/** The current committed output of one (flowName, stageName); `data` only in a detail. */
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
}

/** An immutable entry appended when a stage commits. */
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

/** One entry of a Run's timeline; answers carry the `source` they came through. */
export interface RunEventView {
  seq: number;
  at: string;
  type: string;
  [field: string]: unknown;
}

const SourceSchema = z.enum(["agent_ide", "cli", "studio"]);

/** Schema of {@linkcode ErrorPayload}. */
export const ErrorPayloadSchema = z.object({ code: z.string(), message: z.string(), retryable: z.boolean() });

/** Schema of {@linkcode RunView}. */
export const RunViewSchema = z.object({
  runId: z.string(),
  flowName: z.string(),
  intent: z.string(),
  status: z.enum(["running", "waiting", "completed", "failed", "cancelled"]),
  execution: z.object({ source: SourceSchema, agentExecutor: z.enum(["mcp_client", "service"]) }),
  cursor: z.object({ stageName: z.string(), stepName: z.string() }),
  pendingAction: z.object({
    id: z.string(),
    kind: z.enum(["user_ask_questions", "user_ask_confirmation"]),
    request: z.unknown(),
    createdAt: z.string(),
  }).optional(),
  pendingAgentCall: z.object({
    id: z.string(),
    agentId: z.string(),
    phase: z.enum(["available", "claimed"]),
    createdAt: z.string(),
  }).optional(),
  lastError: ErrorPayloadSchema.optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

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
  source: z.enum(["embedded", "project"]),
});

/** Schema of {@linkcode ArtifactView}. */
export const ArtifactViewSchema = z.object({
  artifactId: z.string(),
  flowName: z.string(),
  stageName: z.string(),
  revision: z.number().int(),
  runId: z.string(),
  recordId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  data: z.unknown().optional(),
});

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

/** Schema of {@linkcode RunEventView}. */
export const RunEventViewSchema = z.looseObject({ seq: z.number().int(), at: z.string(), type: z.string() });

/** What `stats()` reports for the `status` tool. */
export interface EngineStats {
  runs: Record<RunStatus, number>;
  artifacts: number;
  records: number;
  workflows: { available: number; unavailable: number };
  storage: { kind: "sqlite"; journalMode: string };
}

/** A tool the agent may call during one agent call, as published in its task. */
export interface AgentToolView {
  id: string;
  kind: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
}

/** The task of one agent call (SPEC §3 "Agent tasks"): everything the agent needs, never a machine path. */
export interface AgentTaskDefinition {
  runId: string;
  callId: string;
  agentId: string;
  cursor: { stageName: string; stepName: string };
  instructions: string;
  skills: { name: string; description: string; content: string; assets: { id: string; name: string }[] }[];
  tools: AgentToolView[];
  outputSchema: Record<string, unknown>;
}

/** The content of one declared skill asset. */
export interface AgentAssetView {
  assetId: string;
  name: string;
  encoding: "utf8" | "base64";
  content: string;
}
