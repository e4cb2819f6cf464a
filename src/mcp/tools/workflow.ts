/**
 * The workflow tools: start a Run, follow it, answer what it asks a person, cancel it.
 *
 * @module
 */

import { z } from "zod";
import { RunEventViewSchema, RunViewSchema, WorkflowViewSchema } from "../../engine/views.ts";
import { MAX_INTENT_CHARS } from "../../engine/engine.ts";
import { defineTool } from "../tool.ts";
import { Identity } from "./identity.ts";

const FOLLOW = "Follow the returned Run: when it waits with a pendingAction, the person must answer it " +
  "(interact, or answer_ask with their exact answer); with a pendingAgentCall, the agent claims it.";

const RunResult = z.object({ run: RunViewSchema });

/** `flow`: creates a Run of a workflow for one intent. */
export const flowTool = defineTool({
  name: "flow",
  title: "Start a workflow Run",
  description: "Start a new Run of the workflow `flowName` for the user's `intent` and return it. NOT " +
    "idempotent: every call creates another Run, so when a result is uncertain call list_runs or get_run " +
    `instead of calling flow again, and never call flow to continue an existing Run. ${FOLLOW}`,
  input: z.strictObject({
    flowName: z.string().min(1).max(200),
    intent: z.string().max(MAX_INTENT_CHARS).refine((value) => value.trim().length > 0, "must not be blank"),
  }),
  output: RunResult,
  effects: { readOnly: false, destructive: false, idempotent: false },
  run: ({ flowName, intent }, { service, endpoint }) => ({
    run: service.engine.flow({ flowName, intent, source: endpoint.source }),
  }),
});

/** `list_workflows`: the workflows with availability and readiness for this endpoint. */
export const listWorkflowsTool = defineTool({
  name: "list_workflows",
  title: "List workflows",
  description: "List the workflows this service offers, each with whether it loaded (available) and " +
    "whether it can run from this endpoint (ready), with the reason when not. Read-only.",
  input: z.strictObject({}),
  output: z.object({ workflows: z.array(WorkflowViewSchema) }),
  effects: { readOnly: true, destructive: false, idempotent: true },
  run: (_input, { service, endpoint }) => ({ workflows: service.engine.listWorkflows(endpoint.source) }),
});

/** `get_run`: one Run, optionally with its timeline. */
export const getRunTool = defineTool({
  name: "get_run",
  title: "Get a Run",
  description: "Return the current state of a Run. Pass timeline: true to also get its event timeline " +
    `(answers with the source they came through, agent calls, commits). Read-only. ${FOLLOW}`,
  input: z.strictObject({ runId: Identity, timeline: z.boolean().optional() }),
  output: z.object({ run: RunViewSchema, timeline: z.array(RunEventViewSchema).optional() }),
  effects: { readOnly: true, destructive: false, idempotent: true },
  run: ({ runId, timeline }, { service }) => {
    const run = service.engine.getRun(runId);
    return timeline ? { run, timeline: service.engine.getRunTimeline(runId) } : { run };
  },
});

/** `list_runs`: Runs newest first, paged by an opaque cursor bound to the filters. */
export const listRunsTool = defineTool({
  name: "list_runs",
  title: "List Runs",
  description: "List Runs newest first, optionally only those of `flowName` and/or with `status`. Pages of " +
    "`limit` (1–200, default 50); pass the returned nextCursor with the same filters for the next page. Read-only.",
  input: z.strictObject({
    flowName: z.string().min(1).max(200).optional(),
    status: z.enum(["running", "waiting", "completed", "failed", "cancelled"]).optional(),
    limit: z.number().int().min(1).max(200).optional(),
    cursor: z.string().min(1).max(1024).optional(),
  }),
  output: z.object({ runs: z.array(RunViewSchema), nextCursor: z.string().optional() }),
  effects: { readOnly: true, destructive: false, idempotent: true },
  run: (input, { service }) => service.engine.listRuns(input),
});

/** `answer_ask`: submits a person's exact answer to the pending action. */
export const answerAskTool = defineTool({
  name: "answer_ask",
  title: "Answer for the person",
  description: "Submit the person's exact answer to the Run's pendingAction `actionId`. Questions: the " +
    'complete array, one entry per question: [{ "questionId", "isSkipped": false, "answer": "..." }] or ' +
    '{ "questionId", "isSkipped": true } where the question isSkippable. Confirmation: { "isConfirmed": true } ' +
    'or { "isConfirmed": false, "feedback": "what to change" }. Only the person may decide: never invent, ' +
    "pre-fill or confirm an answer yourself. The first valid answer wins; a stale action gets CONFLICT. " +
    FOLLOW,
  input: z.strictObject({ runId: Identity, actionId: Identity, answer: z.unknown() }),
  output: RunResult,
  effects: { readOnly: false, destructive: false, idempotent: false },
  run: ({ runId, actionId, answer }, { service, endpoint }) => ({
    run: service.engine.answerAsk({ runId, actionId, answer, source: endpoint.source }),
  }),
});

/** `cancel_run`: ends an active Run as cancelled. */
export const cancelRunTool = defineTool({
  name: "cancel_run",
  title: "Cancel a Run",
  description: "Cancel an active Run. Its pending action or agent call is withdrawn and any agent still " +
    "working on it is refused from then on. Committed Artifacts and Records stay. Ask the person first.",
  input: z.strictObject({ runId: Identity }),
  output: RunResult,
  effects: { readOnly: false, destructive: true, idempotent: true },
  run: ({ runId }, { service, endpoint }) => ({ run: service.engine.cancelRun(runId, endpoint.source) }),
});
