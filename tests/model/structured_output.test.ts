/**
 * The final result as JSON text where servers take a response format instead of a result tool:
 * `json_schema` sends the step's output schema as the response format, `json_object` asks for JSON and puts
 * the schema in the instructions. Either way the declared tools are still offered, the answer is validated
 * by the same validator, and an invalid one is sent back for repair.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient } from "../support/service.ts";
import { conversationText, type Protocol, scriptedServer, toolNames, turnOf } from "./scripted_server.ts";
import { probeFiles, servedWithModel, waitForRun } from "./support.ts";

const OUTPUT_SCHEMA = {
  type: "object",
  required: ["outcome"],
  additionalProperties: false,
  properties: { outcome: { enum: ["done"] } },
};

/** Where the model puts its answer: in the message text, or (Anthropic) in the library's `json` tool. */
type Answer = "text" | "json tool";

const cases: { protocol: Protocol; mode: "json_schema" | "json_object"; answer: Answer }[] = [
  { protocol: "openai", mode: "json_schema", answer: "text" },
  { protocol: "openai", mode: "json_object", answer: "text" },
  { protocol: "anthropic", mode: "json_schema", answer: "text" },
  { protocol: "anthropic", mode: "json_schema", answer: "json tool" },
];

for (const { protocol, mode, answer } of cases) {
  Deno.test(`structuredOutput ${mode} (${protocol}, ${answer}): the result comes as JSON, repaired once`, async () => {
    const model = scriptedServer(protocol, (request) => {
      const turn = turnOf(request);
      if (turn === 0) return { calls: [{ name: "get_context", input: {} }] };
      if (turn === 1) return { calls: [{ name: "submit_note", input: { value: "noted" } }] };
      // First a result the schema refuses, then, told why, one it accepts (fenced, as models often do).
      if (answer === "json tool") {
        return { calls: [{ name: "json", input: { outcome: turn === 2 ? "finished" : "done" } }] };
      }
      if (turn === 2) return { text: '{"outcome": "finished"}' };
      return { text: '```json\n{"outcome": "done"}\n```' };
    });
    const { served, projectDir, userDir } = await servedWithModel({
      protocol,
      url: model.url,
      entry: { structuredOutput: mode },
      files: probeFiles(),
    });
    const person = await mcpClient(served, "/internal/mcp");
    try {
      const { run } = await call<{ run: RunView }>(person, "flow", { flowName: "probe", intent: mode });
      const done = await waitForRun(person, run.runId, "ended", (r) => r.status !== "waiting");
      assert.equal(done.status, "completed", JSON.stringify(done));
      assert.equal(model.requests.length, 4);
      for (const request of model.requests) {
        // Anthropic's library asks for JSON through a `json` tool where the model lacks native output.
        const offered = toolNames(request).filter((name) => !(protocol === "anthropic" && name === "json"));
        assert.deepEqual(offered, ["get_context", "submit_note"], "the result tool was offered");
      }
      const last = model.requests[3];
      assert.match(conversationText(last), /Your result was rejected: .*outcome/);
      if (protocol === "openai") {
        const format = last.body.response_format as { type: string; json_schema?: { schema: unknown } };
        assert.equal(format.type, mode);
        const told = /Answer with one JSON object matching this JSON Schema/;
        if (mode === "json_schema") assert.deepEqual(format.json_schema?.schema, OUTPUT_SCHEMA);
        else assert.match(conversationText(last), told);
      } else {
        const tools = last.body.tools as { name: string; input_schema: unknown }[];
        const config = last.body.output_config as { format?: { schema: unknown } } | undefined;
        const schema = config?.format?.schema ?? tools.find((tool) => tool.name === "json")?.input_schema;
        assert.deepEqual(schema, OUTPUT_SCHEMA, JSON.stringify(last.body));
      }
    } finally {
      await closeClient(person);
      await served.stop();
      await model.close();
      await Deno.remove(projectDir, { recursive: true });
      await Deno.remove(userDir, { recursive: true });
    }
  });
}
