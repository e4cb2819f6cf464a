/**
 * Both protocol revisions on one running service at the same time: a 2026-07-28 client (the SDK's v2 client,
 * sessionless) and a 2025-11-25 client (v1.32.2, as IDEs in the wild are) each drive an `intent` Run through
 * claim → tools → complete, answer its question and its confirmation through `interact`'s native form
 * (`input_required` on the new revision, elicitation on the old), and hear the Run change. Then what a client
 * sends back with a form: a tampered state is refused, a state of an earlier instance is asked again.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import {
  call,
  callError,
  closeClient,
  serve,
  type ServedProject,
  tempProject,
  type ToolClient,
} from "../support/service.ts";
import { claim, complete, useTool } from "./support.ts";
import { specification } from "../support/intent_agent.ts";
import {
  type FormPerson,
  MODERN_REVISION,
  type ModernClient,
  modernClient,
} from "../support/modern_client.ts";
import { formClient, type FormRequest } from "../ide/support.ts";
import { eventually } from "../support/deadline.ts";
import type { Client } from "../support/sdk_test_client.ts";

/** A person who picks the first choice of every choice field, writes in every required text field, confirms. */
function fill(form: FormRequest): Record<string, string> {
  const content: Record<string, string> = {};
  for (const [key, field] of Object.entries(form.requestedSchema.properties)) {
    const required = form.requestedSchema.required?.includes(key) ?? false;
    if (field.oneOf) content[key] = field.oneOf[0].const;
    else if (required) content[key] = "Every report";
  }
  return content;
}

const PERSON: FormPerson = (form) => ({ action: "accept", content: fill(form as unknown as FormRequest) });

/** Drives one `intent` Run to its plan stage through `agent`, answering its actions with `interact`. */
async function driveIntent(agent: ToolClient, intent: string, claimId: string): Promise<RunView> {
  let run = (await call<{ run: RunView }>(agent, "flow", { flowName: "intent", intent })).run;
  const first = await claim(agent, run, claimId);
  assert.deepEqual((await useTool(agent, first, "list-1", "list_files")).truncated, false);
  await useTool(agent, first, "questions-1", "submit_questions", {
    value: [{ id: "scope", question: "Which reports?", options: [{ id: "all", label: "All reports" }] }],
  });
  run = await complete(agent, first, { outcome: "clarification_required" });
  assert.equal(run.pendingAction?.kind, "user_ask_questions");
  run = await answeredByForm(agent, run);
  const second = await claim(agent, run, claimId);
  await useTool(agent, second, "spec-2", "submit_specification", { value: specification() });
  run = await complete(agent, second, { outcome: "ready" });
  assert.equal(run.pendingAction?.kind, "user_ask_confirmation");
  run = await answeredByForm(agent, run);
  assert.equal(run.cursor.stageName, "plan");
  return run;
}

async function answeredByForm(agent: ToolClient, run: RunView): Promise<RunView> {
  const args = { runId: run.runId, actionId: run.pendingAction!.id };
  const result = await call<{ interaction: string; run: RunView }>(agent, "interact", args);
  assert.equal(result.interaction, "answered");
  return result.run;
}

Deno.test("2026-07-28 and 2025-11-25 clients drive intent Runs on one service at the same time", async () => {
  const projectDir = await tempProject({ "README.md": "# demo\n" });
  let served: ServedProject | undefined;
  let modern: ModernClient | undefined;
  let legacy: Client | undefined;
  try {
    served = await serve(projectDir);
    modern = await modernClient(served, "/mcp", { person: PERSON });
    assert.equal(modern.getNegotiatedProtocolVersion(), MODERN_REVISION);
    legacy = await formClient(served, "/mcp/codex", (form) => ({ action: "accept", content: fill(form) }));
    assert.equal(legacy.getServerVersion()?.name, "weft");

    // The new revision hears the legacy client's Run change through subscriptions/listen.
    const heard: string[] = [];
    modern.setNotificationHandler("notifications/resources/updated", (notification) => {
      heard.push(notification.params.uri);
    });
    const [modernRun, legacyRun] = await Promise.all([
      driveIntent(modern, "add CSV export", "modern-agent"),
      driveIntent(legacy, "add PDF export", "legacy-agent"),
    ]);
    assert.notEqual(modernRun.runId, legacyRun.runId);
    const uri = `weft://runs/${legacyRun.runId}`;
    const listening = await modern.listen({ resourceSubscriptions: [uri] });
    assert.deepEqual(listening.honoredFilter.resourceSubscriptions, [uri]);
    assert.equal(
      (await call<{ run: RunView }>(legacy, "cancel_run", { runId: legacyRun.runId })).run.status,
      "cancelled",
    );
    await eventually(`${uri} heard on the listen stream`, () => heard.includes(uri) || undefined);
    assert.ok(!heard.includes(`weft://runs/${modernRun.runId}`), "only what the stream asked for is told");
    await listening.close();
  } finally {
    await modern?.close();
    if (legacy) await closeClient(legacy);
    await served?.stop();
    await Deno.remove(projectDir, { recursive: true });
  }
});

Deno.test("a form's requestState: the service's signature is checked, and a restart asks again", async () => {
  const projectDir = await tempProject({ "README.md": "# demo\n" });
  let served: ServedProject | undefined;
  const clients: ModernClient[] = [];
  const open = async () => {
    // No person: the test answers the form by hand, to see the state it carries.
    const client = await modernClient(served!, "/mcp", { person: () => ({ action: "cancel" }) });
    clients.push(client);
    return client;
  };
  try {
    served = await serve(projectDir);
    let agent = await open();
    let run =
      (await call<{ run: RunView }>(agent, "flow", { flowName: "intent", intent: "add CSV export" })).run;
    const first = await claim(agent, run, "agent");
    await useTool(agent, first, "spec-1", "submit_specification", { value: specification() });
    run = await complete(agent, first, { outcome: "ready" });
    const args = { runId: run.runId, actionId: run.pendingAction!.id };
    const asked = await formRound(agent, args);
    assert.equal(asked.resultType, "input_required");
    const form = asked.inputRequests!.answer as { method: string; params: FormRequest };
    assert.equal(form.method, "elicitation/create");
    assert.match(form.params.message, /^weft \(intent\): Review this to continue/);
    assert.deepEqual(form.params.requestedSchema.required, ["decision"]);
    const confirm = { answer: { action: "accept", content: { decision: "confirm" } } };

    // A state altered by one character is refused and answers nothing.
    const state = asked.requestState!;
    const tampered = state.slice(0, -2) + (state.at(-2) === "A" ? "B" : "A") + state.at(-1);
    const refused = await formRound(agent, args, { inputResponses: confirm, requestState: tampered });
    assert.equal(refused.isError, true);
    assert.equal(refused.structuredContent?.error.code, "INVALID_REQUEST");
    assert.match(refused.structuredContent!.error.message, /requestState was not issued by this service/);
    assert.equal(
      (await call<{ run: RunView }>(agent, "get_run", { runId: run.runId })).run.pendingAction?.id,
      args.actionId,
    );
    // One state answers only its own action.
    const other = await callError(
      {
        callTool: (params) =>
          formRound(agent, params.arguments as typeof args, { inputResponses: confirm, requestState: state }),
      },
      "interact",
      { ...args, actionId: "act_other" },
    );
    assert.equal(other.code, "INVALID_REQUEST");

    // After a restart, the state of the earlier instance gets the form again, freshly signed.
    await Promise.all(clients.splice(0).map((client) => client.close()));
    assert.equal(await served.stop(), 0);
    served = await serve(projectDir, { port: "previous" });
    agent = await open();
    const again = await formRound(agent, args, { inputResponses: confirm, requestState: state });
    assert.equal(again.resultType, "input_required");
    assert.notEqual(again.requestState, state);
    assert.deepEqual(
      (again.inputRequests!.answer as { params: FormRequest }).params.requestedSchema,
      form.params.requestedSchema,
    );
    assert.equal(
      (await call<{ run: RunView }>(agent, "get_run", { runId: run.runId })).run.status,
      "waiting",
    );

    // Answered with the fresh state, the Run goes on; the same state again is a stale answer.
    const answered = await formRound(agent, args, {
      inputResponses: confirm,
      requestState: again.requestState,
    });
    assert.equal(answered.structuredContent?.interaction, "answered");
    const replayed = await formRound(agent, args, {
      inputResponses: confirm,
      requestState: again.requestState,
    });
    assert.equal(replayed.structuredContent?.error.code, "CONFLICT");
  } finally {
    await Promise.all(clients.map((client) => client.close()));
    await served?.stop();
    await Deno.remove(projectDir, { recursive: true });
  }
});

/** One round of `interact` on 2026-07-28 by hand: what the service answers, `input_required` included. */
interface Round {
  resultType?: string;
  inputRequests?: Record<string, unknown>;
  requestState?: string;
  isError?: boolean;
  // deno-lint-ignore no-explicit-any
  structuredContent?: any;
}

function formRound(
  agent: ModernClient,
  args: Record<string, unknown>,
  retry: { inputResponses?: Record<string, unknown>; requestState?: string } = {},
): Promise<Round> {
  // The SDK's public types leave out the retry fields; the request carries them as the revision says.
  return agent.callTool({ name: "interact", arguments: args, ...retry } as never, {
    allowInputRequired: true,
  }) as Promise<
    Round
  >;
}
