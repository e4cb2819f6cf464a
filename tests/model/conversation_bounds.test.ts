/**
 * A model's answers cannot make one agent call hold unbounded memory: an oversized tool call is refused before
 * it is kept or run, and a conversation that would grow past its bound ends the call, each with
 * `BUDGET_EXCEEDED` naming the bound, after a bounded number of requests; the service keeps answering.
 */
import assert from "node:assert/strict";
import type { RunEventView, RunView } from "../../src/engine/views.ts";
import { MAX_CONVERSATION_BYTES, MAX_TOOL_INPUT_BYTES } from "../../src/model/conversation.ts";
import { call, closeClient, mcpClient } from "../support/service.ts";
import { type ScriptedReply, scriptedServer } from "./scripted_server.ts";
import { probeFiles, servedWithModel, timelineOf, waitForRun } from "./support.ts";

Deno.test("conversation bounds: big tool calls end the agent call with BUDGET_EXCEEDED naming the bound", async (t) => {
  let reply: () => ScriptedReply = () => ({ calls: [] });
  const model = scriptedServer("openai", () => reply());
  const { served, projectDir, userDir } = await servedWithModel({
    protocol: "openai",
    url: model.url,
    files: probeFiles({ maxTurns: 30, maxToolCalls: 30 }),
  });
  const person = await mcpClient(served, "/internal/mcp");
  const ide = await mcpClient(served, "/mcp");
  const probe = async () => {
    const before = model.requests.length;
    const { run } = await call<{ run: RunView }>(person, "flow", { flowName: "probe", intent: "big calls" });
    const ended = await waitForRun(person, run.runId, "failed", (r) => r.status === "failed");
    const timeline = await timelineOf(person, run.runId);
    return { run: ended, requests: model.requests.length - before, timeline };
  };
  const count = (timeline: RunEventView[], type: string) => timeline.filter((e) => e.type === type).length;
  try {
    await t.step("a tool call past 1 MiB is refused on its first turn, unrun", async () => {
      const value = "x".repeat(MAX_TOOL_INPUT_BYTES + 1);
      reply = () => ({ calls: [{ name: "submit_note", input: { value } }] });
      const { run, requests, timeline } = await probe();
      assert.equal(run.lastError?.code, "BUDGET_EXCEEDED");
      assert.match(
        run.lastError!.message,
        /called "submit_note" with \d+ bytes of input, more than the 1 MiB/,
      );
      assert.equal(requests, 1);
      assert.equal(count(timeline, "state_submitted"), 0, "the oversized input never reached the state");
      assert.equal(count(timeline, "model_tool_call"), 0, "nor any tool");
    });

    await t.step("tool calls under 1 MiB each stop once the conversation would pass 8 MiB", async () => {
      // A million bytes a turn: eight turns fit in 8 MiB with the prompt, the ninth does not.
      const pad = "y".repeat(1_000_000);
      reply = () => ({ calls: [{ name: "get_context", input: { pad } }] });
      const { run, requests } = await probe();
      assert.equal(run.lastError?.code, "BUDGET_EXCEEDED");
      assert.match(run.lastError!.message, /the conversation of this agent call would hold \d+ bytes/);
      assert.match(run.lastError!.message, new RegExp(`${MAX_CONVERSATION_BYTES / 1024 / 1024} MiB`));
      assert.equal(requests, 9);
    });

    const { service } = await call<{ service: { name: string } }>(ide, "status");
    assert.equal(service.name, "weft");
  } finally {
    await closeClient(person);
    await closeClient(ide);
    await served.stop();
    await model.close();
    await Deno.remove(projectDir, { recursive: true });
    await Deno.remove(userDir, { recursive: true });
  }
});
