/**
 * The embedded `intent` workflow run end to end without an IDE: started on `/internal/mcp`, its agent steps
 * driven by the service's model (scripted OpenAI-compatible and Anthropic servers on loopback), the person
 * answering a question and asking for one revision.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient } from "../support/service.ts";
import { type Protocol, scriptedServer, toolNames } from "./scripted_server.ts";
import { intentModel, servedWithModel, serviceLogs, TEST_KEY, timelineOf, waitForRun } from "./support.ts";

for (const protocol of ["openai", "anthropic"] as Protocol[]) {
  Deno.test(`the service's model (${protocol}) drives intent to completed with a person's answers and a revision`, async () => {
    const model = scriptedServer(protocol, intentModel());
    const keyEnv = `WEFT_TEST_KEY_${protocol.toUpperCase()}`;
    const { served, projectDir, userDir } = await servedWithModel({ protocol, url: model.url, keyEnv });
    const person = await mcpClient(served, "/internal/mcp");
    try {
      const status = await call<{ service: { model: { ready: boolean; roles: unknown[] } } }>(
        person,
        "status",
      );
      assert.equal(status.service.model.ready, true);
      assert.deepEqual(status.service.model.roles, [{
        role: "default",
        ready: true,
        provider: protocol === "openai" ? "openai-compatible" : "anthropic",
        model: protocol === "openai" ? "scripted-gpt" : "scripted-claude",
        baseURL: `${model.url}/v1`,
        origin: "project",
        trusted: true,
        apiKeyEnv: keyEnv,
        keySet: true,
      }]);
      const { workflows } = await call<{ workflows: { name: string; ready: boolean }[] }>(
        person,
        "list_workflows",
      );
      assert.equal(workflows.find((w) => w.name === "intent")?.ready, true);

      let run =
        (await call<{ run: RunView }>(person, "flow", { flowName: "intent", intent: "add CSV export" })).run;
      assert.equal(run.execution.agentExecutor, "service");
      const runId = run.runId;
      const waitingForPerson = (label: string) =>
        waitForRun(
          person,
          runId,
          label,
          (r) => r.pendingAction !== undefined || r.status !== "waiting" && r.status !== "running",
        );

      run = await waitingForPerson("asking the clarification");
      assert.equal(run.pendingAction?.kind, "user_ask_questions", JSON.stringify(run));
      run = (await call<{ run: RunView }>(person, "answer_ask", {
        runId,
        actionId: run.pendingAction!.id,
        answer: [{ questionId: "format", isSkipped: false, answer: "csv" }],
      })).run;

      run = await waitingForPerson("asking to confirm the specification");
      assert.equal(run.pendingAction?.kind, "user_ask_confirmation", JSON.stringify(run));
      run = (await call<{ run: RunView }>(person, "answer_ask", {
        runId,
        actionId: run.pendingAction!.id,
        answer: { isConfirmed: false, feedback: "name the export button" },
      })).run;

      run = await waitingForPerson("asking to confirm the revised specification");
      assert.equal(run.cursor.stageName, "specification");
      assert.equal(run.pendingAction?.kind, "user_ask_confirmation");
      run = (await call<{ run: RunView }>(person, "answer_ask", {
        runId,
        actionId: run.pendingAction!.id,
        answer: { isConfirmed: true },
      })).run;

      run = await waitingForPerson("asking to confirm the plan");
      assert.equal(run.cursor.stageName, "plan");
      run = (await call<{ run: RunView }>(person, "answer_ask", {
        runId,
        actionId: run.pendingAction!.id,
        answer: { isConfirmed: true },
      })).run;
      assert.equal(run.status, "completed", JSON.stringify(run));

      // Four agent calls of three turns each: clarify, draft, revised draft, plan.
      assert.equal(model.requests.length, 12);
      const first = model.requests[0];
      assert.equal(first.path, protocol === "openai" ? "/v1/chat/completions" : "/v1/messages");
      if (protocol === "openai") assert.equal(first.headers.authorization, `Bearer ${TEST_KEY}`);
      else assert.equal(first.headers["x-api-key"], TEST_KEY);
      assert.deepEqual(toolNames(first), [
        "get_context",
        "list_files",
        "read_file",
        "submit_specification",
        "submit_questions",
        "read_skill_asset",
        "complete_agent_call",
      ]);
      const resultTool = (first.body.tools as Record<string, unknown>[]).at(-1)!;
      const schema = protocol === "openai"
        ? (resultTool.function as { parameters: unknown }).parameters
        : resultTool.input_schema;
      assert.deepEqual((schema as { properties: { outcome: { enum: string[] } } }).properties.outcome.enum, [
        "ready",
        "clarification_required",
      ]);
      assert.match(JSON.stringify(first.body), /Skill: specification-writing/);
      assert.deepEqual(toolNames(model.requests[9]), [
        "get_context",
        "list_files",
        "read_file",
        "submit_plan",
        "read_skill_asset",
        "complete_agent_call",
      ]);
      // The revision's feedback reached the model through the declared run_context tool.
      assert.match(JSON.stringify(model.requests[7].body), /name the export button/);

      const timeline = await timelineOf(person, runId);
      const turns = timeline.filter((event) => event.type === "model_turn");
      assert.equal(turns.length, 12);
      assert.deepEqual(
        { ...turns[0], seq: 0, at: "", ms: 0 },
        {
          seq: 0,
          at: "",
          ms: 0,
          type: "model_turn",
          stageName: "specification",
          stepName: "draft",
          callId: turns[0].callId,
          turn: 1,
          role: "default",
          model: protocol === "openai" ? "scripted-gpt" : "scripted-claude",
          inputTokens: 1200,
          outputTokens: 15,
          toolCalls: ["get_context"],
        },
      );
      assert.equal(timeline.filter((event) => event.type === "model_tool_call").length, 8);
      assert.ok(!JSON.stringify(timeline).includes(TEST_KEY), "the key is on the timeline");
    } finally {
      await closeClient(person);
      await served.stop();
      await model.close();
      const logs = serviceLogs(projectDir);
      assert.ok(logs.includes('"model.call_ended"'), "the service log records the model calls");
      assert.ok(!logs.includes(TEST_KEY), "the key is in the service log");
      assert.ok(!logs.includes("add CSV export"), "the intent is in the service log");
      await Deno.remove(projectDir, { recursive: true });
      await Deno.remove(userDir, { recursive: true });
    }
  });
}
