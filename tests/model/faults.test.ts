/**
 * What the service does when the model server misbehaves: every fault ends the Run with a classified
 * error (or is survived), nothing committed is lost, the key shows up nowhere, and the service keeps
 * serving. For each protocol (OpenAI-compatible chat completions and Anthropic Messages), one service and
 * one scripted server serve every case; each case rewrites what the server does (and, where needed,
 * weft.json, which applies to the next agent call).
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { within } from "../support/deadline.ts";
import { call, closeClient, mcpClient, trustProject } from "../support/service.ts";
import {
  conversationText,
  type Protocol,
  type RecordedRequest,
  type ScriptedReply,
  scriptedServer,
  truncatingServer,
  turnOf,
} from "./scripted_server.ts";
import {
  hang,
  probeFiles,
  probeTurn,
  servedWithModel,
  serviceLogs,
  TEST_KEY,
  timelineOf,
  waitForRun,
} from "./support.ts";

const KEY_ENV = "WEFT_TEST_KEY_FAULTS";

for (const protocol of ["openai", "anthropic"] as Protocol[]) {
  Deno.test(`model server faults (${protocol}) end the Run with a classified error, or are survived`, async (t) => {
    let behave: (request: RecordedRequest) => ScriptedReply | Promise<ScriptedReply> = (r) =>
      probeTurn(turnOf(r));
    const model = scriptedServer(protocol, (request) => behave(request));
    const provider = protocol === "openai" ? "openai-compatible" : "anthropic";
    const modelName = protocol === "openai" ? "scripted-gpt" : "scripted-claude";
    const { served, projectDir, userDir } = await servedWithModel({
      protocol,
      url: model.url,
      keyEnv: KEY_ENV,
      files: { ...probeFiles(), ...budgetFiles() },
    });
    const person = await mcpClient(served, "/internal/mcp");
    // The person edits weft.json and trusts the edit, as they must for the next Run to use it.
    const weftJson = async (entry: Record<string, unknown>) => {
      Deno.writeTextFileSync(
        `${projectDir}/weft.json`,
        JSON.stringify({
          models: {
            default: {
              provider,
              model: modelName,
              baseURL: `${model.url}/v1`,
              apiKeyEnv: KEY_ENV,
              ...entry,
            },
          },
        }),
      );
      await trustProject(projectDir, userDir);
    };
    const ended = (run: RunView) => run.status !== "running" && run.status !== "waiting";
    /** Starts a probe Run with the server behaving as given and waits for it to end. */
    const probe = async (behaviour: typeof behave, what: string, flowName = "probe") => {
      behave = behaviour;
      const before = model.requests.length;
      const { run } = await call<{ run: RunView }>(person, "flow", {
        flowName,
        intent: `probe ${what}`,
      });
      const end = await waitForRun(person, run.runId, `ended after ${what}`, ended);
      return { run: end, requests: model.requests.slice(before) };
    };
    const expectFailure = (run: RunView, code: string, message: RegExp) => {
      assert.equal(run.status, "failed", JSON.stringify(run));
      assert.equal(run.lastError?.code, code, JSON.stringify(run.lastError));
      assert.match(run.lastError!.message, message);
      assert.ok(!run.lastError!.message.includes(TEST_KEY), "the key is in the error");
    };
    try {
      await t.step("the well-behaved probe completes", async () => {
        const { run, requests } = await probe((r) => probeTurn(turnOf(r)), "a good model");
        assert.equal(run.status, "completed", JSON.stringify(run));
        assert.equal(requests.length, 3);
      });

      await t.step("connection refused: MODEL_UNAVAILABLE, retryable", async () => {
        const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
        const port = closed.addr.port;
        closed.close();
        await weftJson({ baseURL: `http://127.0.0.1:${port}/v1` });
        const { run } = await probe((r) => probeTurn(turnOf(r)), "a refused connection");
        expectFailure(
          run,
          "MODEL_UNAVAILABLE",
          new RegExp(`model role "default" \\(${provider} ${modelName}\\): the server cannot be reached`),
        );
        assert.equal(run.lastError?.retryable, true);
        await weftJson({});
      });

      await t.step(
        "500 on every attempt: retried, then MODEL_UNAVAILABLE with the provider's message",
        async () => {
          const { run, requests } = await probe(() => ({
            response: () =>
              Response.json({ error: { message: `overloaded, key ${TEST_KEY}` } }, {
                status: 500,
                headers: { "retry-after": "0" },
              }),
          }), "500s");
          expectFailure(run, "MODEL_UNAVAILABLE", /answered HTTP 500: overloaded, key \[redacted\]/);
          assert.equal(requests.length, 4, "one request and three retries");
        },
      );

      await t.step("429 with retry-after: waits at least as long as asked, then completes", async () => {
        let limited = false;
        const { run, requests } = await probe((r) => {
          if (!limited) {
            limited = true;
            return {
              response: () => new Response("slow down", { status: 429, headers: { "retry-after": "1" } }),
            };
          }
          return probeTurn(turnOf(r));
        }, "a 429");
        assert.equal(run.status, "completed", JSON.stringify(run));
        assert.equal(requests.length, 4);
        // A lower bound only: the service may take longer, never less than the second the server asked for.
        const waited = requests[1].receivedAt - requests[0].receivedAt;
        assert.ok(waited >= 1000, `the retry came ${waited} ms after the 429 asked for 1 s`);
      });

      await t.step("429 asking to wait past the call's wall time: fails at once", async () => {
        const { run, requests } = await probe(() => ({
          response: () => new Response("{}", { status: 429, headers: { "retry-after": "86400" } }),
        }), "a long 429");
        expectFailure(run, "MODEL_UNAVAILABLE", /HTTP 429.*asked to wait 86400 s, past the call's wall time/);
        assert.equal(requests.length, 1);
      });

      await t.step("401: MODEL_REQUEST_FAILED, not retryable", async () => {
        const { run } = await probe(() => ({
          response: () => Response.json({ error: { message: "invalid api key" } }, { status: 401 }),
        }), "a 401");
        expectFailure(run, "MODEL_REQUEST_FAILED", /HTTP 401: invalid api key/);
        assert.equal(run.lastError?.retryable, false);
      });

      await t.step("a response slower than the request timeout: MODEL_UNAVAILABLE", async () => {
        await weftJson({ timeoutSeconds: 0.3 });
        const { run, requests } = await probe((r) => ({ response: () => hang(r) }), "a slow server");
        expectFailure(run, "MODEL_UNAVAILABLE", /no answer within 0.3 s/);
        assert.equal(requests[0].signal.aborted, true, "the request was abandoned");
        await weftJson({});
      });

      await t.step("malformed JSON and garbage: MODEL_REQUEST_FAILED", async () => {
        const misshapen = JSON.stringify(protocol === "openai" ? { choices: "none" } : { content: "none" });
        for (const body of ["{not json", "\u0000\u0001garbage", misshapen]) {
          const { run } = await probe(() => ({
            response: () => new Response(body, { headers: { "content-type": "application/json" } }),
          }), "malformed JSON");
          expectFailure(run, "MODEL_REQUEST_FAILED", /the server's answer could not be used/);
        }
      });

      await t.step("a body cut off mid-way: MODEL_UNAVAILABLE, retryable", async () => {
        const cut = truncatingServer();
        await weftJson({ baseURL: `${cut.url}/v1` });
        try {
          const { run } = await probe((r) => probeTurn(turnOf(r)), "a truncated body");
          expectFailure(run, "MODEL_UNAVAILABLE", /the connection broke before the whole answer arrived/);
          assert.equal(run.lastError?.retryable, true);
          assert.equal(cut.requests(), 1);
        } finally {
          await weftJson({});
          await cut.close();
        }
      });

      await t.step("a body larger than 16 MiB is refused, not buffered: MODEL_REQUEST_FAILED", async () => {
        const chunk = new Uint8Array(1024 * 1024).fill(32);
        const { run } = await probe(() => ({
          response: () =>
            new Response(
              new ReadableStream({
                start(controller) {
                  for (let i = 0; i < 17; i++) controller.enqueue(chunk);
                  controller.close();
                },
              }),
              { headers: { "content-type": "application/json" } },
            ),
        }), "a huge body");
        expectFailure(run, "MODEL_REQUEST_FAILED", /larger than 16 MiB/);
      });

      await t.step("a result violating the schema is sent back and repaired on the next turn", async () => {
        const { run, requests } = await probe((r) => {
          const turn = turnOf(r);
          if (turn === 0) return { calls: [{ name: "complete_agent_call", input: { outcome: "finished" } }] };
          return { calls: [{ name: "complete_agent_call", input: { outcome: "done" } }] };
        }, "a repaired result");
        assert.equal(run.status, "completed", JSON.stringify(run));
        assert.equal(requests.length, 2);
        assert.match(conversationText(requests[1]), /AGENT_OUTPUT_INVALID/);
        assert.match(conversationText(requests[1]), /outcome/);
      });

      await t.step("a result never repaired: AGENT_OUTPUT_INVALID after the repairs", async () => {
        const { run, requests } = await probe(() => ({
          calls: [{ name: "complete_agent_call", input: { outcome: "finished" } }],
        }), "an unrepaired result");
        expectFailure(run, "AGENT_OUTPUT_INVALID", /did not submit a valid result after 1 repairs/);
        assert.equal(requests.length, 2);
      });

      await t.step("a model calling tools forever: BUDGET_EXCEEDED", async () => {
        const { run, requests } = await probe(
          () => ({ calls: [{ name: "get_context", input: {} }] }),
          "endless tools",
        );
        expectFailure(run, "BUDGET_EXCEEDED", /called tools more than the 4 one agent call may/);
        assert.equal(requests.length, 5);
        const timeline = await timelineOf(person, run.runId);
        assert.equal(timeline.filter((event) => event.type === "model_tool_call").length, 4);
      });

      await t.step("a model never submitting uses up the workflow's maxTurns: BUDGET_EXCEEDED", async () => {
        const { run, requests } = await probe(
          () => ({ calls: [{ name: "get_context", input: {} }] }),
          "endless turns",
          "budget",
        );
        expectFailure(run, "BUDGET_EXCEEDED", /used its 2 model turns without submitting a valid result/);
        assert.equal(requests.length, 2);
      });

      await t.step("an answer slower than the workflow's maxSeconds: BUDGET_EXCEEDED", async () => {
        const { run, requests } = await probe(
          (r) => ({ response: () => hang(r) }),
          "a call past its wall time",
          "budget",
        );
        expectFailure(run, "BUDGET_EXCEEDED", /no answer within 1 s/);
        assert.equal(requests[0].signal.aborted, true, "the request was abandoned");
      });

      await t.step("cancel during a request aborts it at once", async () => {
        behave = (r) => ({ response: () => hang(r) });
        const before = model.requests.length;
        const { run } = await call<{ run: RunView }>(person, "flow", {
          flowName: "probe",
          intent: "probe cancel",
        });
        await within("the model request", model.received(before + 1));
        const request = model.requests[before];
        const aborted = new Promise<void>((resolve) =>
          request.signal.addEventListener("abort", () => resolve())
        );
        const cancelled = (await call<{ run: RunView }>(person, "cancel_run", { runId: run.runId })).run;
        assert.equal(cancelled.status, "cancelled");
        await within("the model request to be abandoned after the cancel", aborted, 5000);
        const after = await waitForRun(person, run.runId, "still cancelled", (r) => r.status === "cancelled");
        assert.equal(after.lastError, undefined);
      });

      await t.step("the service still serves, and the key is in no log", async () => {
        const status = await call<{ service: { model: { ready: boolean } } }>(person, "status");
        assert.equal(status.service.model.ready, true);
      });
    } finally {
      await closeClient(person);
      await served.stop();
      await model.close();
      const logs = serviceLogs(projectDir);
      assert.ok(!logs.includes(TEST_KEY), "the key is in the service log");
      await Deno.remove(projectDir, { recursive: true });
      await Deno.remove(userDir, { recursive: true });
    }
  });
}

/**
 * The probe workflow as `budget`, its budgets set for the whole workflow rather than on the step: two model
 * turns and one second of wall time per agent call.
 */
function budgetFiles(): Record<string, string> {
  const files = probeFiles();
  const manifest = JSON.parse(files["workflows/probe/workflow.json"]);
  manifest.name = "budget";
  manifest.model = { maxTurns: 2, maxSeconds: 1 };
  delete manifest.stages.work.steps.draft.model;
  return {
    "workflows/budget/workflow.json": JSON.stringify(manifest, null, 2),
    "workflows/budget/draft.md": files["workflows/probe/draft.md"],
  };
}
