/**
 * Fixtures for the IDE tests: a project workflow made only of human steps (so a Run waits for a person
 * without any agent), and SDK clients that answer form elicitations the way a test scripts them.
 *
 * @module
 */

import { ElicitRequestSchema, type ElicitResult } from "../support/sdk_test_client.ts";
import type { Client } from "../support/sdk_test_client.ts";
import type { RunView } from "../../src/engine/views.ts";
import { call, mcpClient, type ServedProject } from "../support/service.ts";
import { humanFlow, workflowFiles } from "../support/workflows.ts";

/** The name of the human-only workflow. */
export const FLOW = "pick";

/** `workflows/pick/workflow.json`: ask four questions, confirm the whole state, commit it. */
export const PICK_WORKFLOW = humanFlow({
  name: FLOW,
  title: "Pick a report destination",
  description: "Asks where a report goes, shows the choice for confirmation and keeps it.",
  stage: "choose",
  questions: [
    {
      id: "destination",
      question: "Where should the report go?",
      options: [{ id: "local", label: "Local project" }, { id: "wiki", label: "Team wiki" }],
    },
    {
      id: "format",
      question: "Which format should the weekly report be written in for the team?",
      description: "Markdown renders everywhere.",
      options: [{ id: "md", label: "Markdown" }, { id: "pdf", label: "PDF" }],
      allowOther: true,
      isSkippable: true,
    },
    { id: "notes", question: "Anything else we should know?", isSkippable: true },
    { id: "owner", question: "Who owns the report?" },
  ],
  // A proposal in the state, so the confirmation shows nested context beside the answers.
  state: {
    schema: { type: "object" },
    initial: { proposal: { title: "Weekly report", sections: ["Highlights", "Risks"] } },
  },
  check: null,
  data: "",
  feedbackTo: "/feedback",
  stepIds: { confirm: "review", commit: "save" },
});

/** The files of a temporary project that offers the `pick` workflow. */
export const PICK_PROJECT = workflowFiles(PICK_WORKFLOW);

/** A complete, valid answer to the `pick` questions. */
export const PICK_ANSWER = [
  { questionId: "destination", isSkipped: false, answer: "wiki" },
  { questionId: "format", isSkipped: true },
  { questionId: "notes", isSkipped: true },
  { questionId: "owner", isSkipped: false, answer: "Ada" },
];

/** The form parameters a client receives, as the tests read them. */
export interface FormRequest {
  message: string;
  requestedSchema: {
    properties: Record<string, { title?: string; description?: string; oneOf?: { const: string }[] }>;
    required?: string[];
  };
}

/** How a scripted person replies to one form; `signal` aborts when the server withdraws the form. */
export type Person = (form: FormRequest, signal: AbortSignal) => Promise<ElicitResult> | ElicitResult;

/** An SDK client on `path` that declares form elicitation and lets `person` answer every form. */
export async function formClient(served: ServedProject, path: string, person: Person): Promise<Client> {
  const client = await mcpClient(served, path, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(
    ElicitRequestSchema,
    (request, extra) => person(request.params as unknown as FormRequest, extra.signal),
  );
  return client;
}

/** Starts a `pick` Run through `client` and returns it, waiting on its questions. */
export async function startPick(client: Client, intent = "Publish the weekly report"): Promise<RunView> {
  return (await call<{ run: RunView }>(client, "flow", { flowName: FLOW, intent })).run;
}

/** Answers the questions with {@linkcode PICK_ANSWER}, so the Run waits for its confirmation. */
export async function toConfirmation(client: Client, run: RunView): Promise<RunView> {
  const args = { runId: run.runId, actionId: run.pendingAction!.id, answer: PICK_ANSWER };
  return (await call<{ run: RunView }>(client, "answer_ask", args)).run;
}

/** The result of `interact`. */
export interface Interaction {
  interaction: "answered" | "dismissed" | "unavailable";
  run: RunView;
  action?: RunView["pendingAction"];
}

/** Calls `interact` for the Run's current pending action. */
export function interact(client: Client, run: RunView): Promise<Interaction> {
  return call<Interaction>(client, "interact", { runId: run.runId, actionId: run.pendingAction!.id });
}

/** The values of a choice field, in order. */
export function choices(form: FormRequest, key: string): string[] {
  return (form.requestedSchema.properties[key].oneOf ?? []).map((choice) => choice.const);
}
