/**
 * The workflow tools: start a Run, follow it, answer what it asks a person, cancel it.
 *
 * @module
 */

import { z } from "../../lib/zod.ts";
import {
  RunEventViewSchema,
  RunStatusSchema,
  RunViewSchema,
  WorkflowViewSchema,
} from "../../engine/views.ts";
import { MAX_INTENT_CHARS } from "../../engine/data_limits.ts";
import { PAGE_SIZE_TEXT } from "../../engine/paging.ts";
import { defineTool } from "../tool.ts";
import { IdSchema, Name, Paging } from "./shared_inputs.ts";

const RunResult = z.object({ run: RunViewSchema });

/** `flow`: creates a Run of a workflow for one intent. */
export const flowTool = defineTool({
  name: "flow",
  title: "Start a workflow Run",
  description: "Start a new Run of workflow `flowName` for the person's `intent`; returns " +
    "the Run. Not idempotent: when unsure whether it worked, look with list_runs or get_run, never call flow " +
    "again.",
  input: z.strictObject({
    flowName: Name,
    intent: z.string().max(MAX_INTENT_CHARS).refine((value) => value.trim().length > 0, "must not be blank"),
  }),
  output: RunResult,
  effects: { readOnly: false, destructive: false, idempotent: false },
  run: async ({ flowName, intent }, { service, endpoint }) => ({
    run: await service.engine.startRun({
      flowName,
      intent,
      source: endpoint.source,
      agentExecutor: endpoint.agentExecutor,
    }),
  }),
});

/** `list_workflows`: the workflows with availability and readiness for this endpoint. */
export const listWorkflowsTool = defineTool({
  name: "list_workflows",
  title: "List workflows",
  description: "List the workflows, each with whether it loaded (available) and can run " +
    "from this endpoint (ready), and why not.",
  input: z.strictObject({}),
  output: z.object({ workflows: z.array(WorkflowViewSchema) }),
  effects: { readOnly: true, destructive: false, idempotent: true },
  run: async (_input, { service, endpoint }) => ({
    workflows: await service.engine.listWorkflows(endpoint.agentExecutor),
  }),
});

/** `get_run`: one Run, optionally with its timeline. */
export const getRunTool = defineTool({
  name: "get_run",
  title: "Get a Run",
  description: "Return a Run's current state; timeline: true adds its events. Follow its " +
    "status, pendingAction and pendingAgentCall.",
  input: z.strictObject({ runId: IdSchema, timeline: z.boolean().optional() }),
  output: z.object({ run: RunViewSchema, timeline: z.array(RunEventViewSchema).optional() }),
  effects: { readOnly: true, destructive: false, idempotent: true },
  run: async ({ runId, timeline }, { service }) => {
    const run = await service.engine.getRun(runId);
    return timeline ? { run, timeline: await service.engine.getRunTimeline(runId) } : { run };
  },
});

/** `list_runs`: Runs newest first, paged by an opaque cursor bound to the filters. */
export const listRunsTool = defineTool({
  name: "list_runs",
  title: "List Runs",
  description: "List Runs newest first, optionally by flowName and status, in pages of " +
    `limit (${PAGE_SIZE_TEXT}); pass nextCursor with the same filters for the next page.`,
  input: z.strictObject({
    flowName: Name.optional(),
    status: RunStatusSchema.optional(),
    ...Paging,
  }),
  output: z.object({ runs: z.array(RunViewSchema), nextCursor: z.string().optional() }),
  effects: { readOnly: true, destructive: false, idempotent: true },
  run: (input, { service }) => service.engine.listRuns(input),
});

/** `answer_ask`: submits a person's exact answer to the pending action. */
export const answerAskTool = defineTool({
  name: "answer_ask",
  title: "Answer for the person",
  description: "Submit the person's exact answer to the Run's pendingAction: for " +
    'questions the complete array [{ "questionId", "isSkipped", "answer" }], for a confirmation ' +
    '{ "isConfirmed", "feedback" }. Never answer or confirm for the person. An action with answerFrom ' +
    '"person" takes no answer from the IDE\'s agent (NOT_ALLOWED): the person answers it in your form (interact), weft attach or Studio.',
  input: z.strictObject({ runId: IdSchema, actionId: IdSchema, answer: z.unknown() }),
  output: RunResult,
  effects: { readOnly: false, destructive: false, idempotent: false },
  run: async ({ runId, actionId, answer }, { service, endpoint }) => ({
    run: await service.engine.answerAsk({ runId, actionId, answer, source: endpoint.source }),
  }),
});

/** `cancel_run`: ends an active Run as cancelled. */
export const cancelRunTool = defineTool({
  name: "cancel_run",
  title: "Cancel a Run",
  description: "Cancel an active Run: its pending action or agent call is withdrawn; " +
    "committed Artifacts and Records stay. Ask the person first.",
  input: z.strictObject({ runId: IdSchema }),
  output: RunResult,
  effects: { readOnly: false, destructive: true, idempotent: true },
  run: async ({ runId }, { service, endpoint }) => ({
    run: await service.engine.cancelRun(runId, endpoint.source),
  }),
});

/** `move_run`: moves a waiting Run to the current version of its workflow (internal endpoints only). */
export const moveRunTool = defineTool({
  name: "move_run",
  title: "Move a Run to the current workflow version",
  description: "Move a waiting Run to the current version of its workflow (else a Run finishes under the " +
    "version it started with); CONFLICT says what does not fit there. Only when the person asks for it.",
  input: z.strictObject({ runId: IdSchema }),
  output: RunResult,
  effects: { readOnly: false, destructive: false, idempotent: true },
  run: async ({ runId }, { service, endpoint }) => ({
    run: await service.engine.moveRun(runId, endpoint.source),
  }),
});

/** `revise_artifact`: a person brings the edits of a published file back; internal endpoints only. */
export const reviseArtifactTool = defineTool({
  name: "revise_artifact",
  title: "Revise from an edited file",
  description: "Start a revision Run bringing the person's edit of published file `path` back into its " +
    "Artifact (person only).",
  input: z.strictObject({ path: z.string().min(1).max(4096) }),
  output: RunResult,
  effects: { readOnly: false, destructive: false, idempotent: false },
  run: async ({ path }, { service, endpoint }) => ({
    run: await service.engine.reviseArtifact({
      path,
      source: endpoint.source,
      agentExecutor: endpoint.agentExecutor,
    }),
  }),
});

/** `retry_run`: a person resumes a Run whose agent call stopped; internal endpoints only. */
export const retryRunTool = defineTool({
  name: "retry_run",
  title: "Retry a Run",
  description: "Resume a Run stopped by RUN_INTERRUPTED, MODEL_UNAVAILABLE or COMMAND_UNAVAILABLE, or one " +
    "waiting on a command the person has since trusted (person only).",
  input: z.strictObject({ runId: IdSchema }),
  output: RunResult,
  effects: { readOnly: false, destructive: false, idempotent: false },
  run: async ({ runId }, { service, endpoint }) => ({
    run: await service.engine.retryRun(runId, endpoint.source),
  }),
});
