/**
 * The probe workflow against a real model server, run only when `WEFT_LIVE_BASE_URL` and `WEFT_LIVE_MODEL`
 * name one (docs/models.md, "Trying a real server"). For example, with Ollama:
 *
 *   WEFT_LIVE_BASE_URL=http://127.0.0.1:11434/v1 WEFT_LIVE_MODEL=qwen3:8b deno test -A tests/model/live.test.ts
 *
 * `WEFT_LIVE_PROVIDER` (`openai-compatible` or `anthropic`), `WEFT_LIVE_KEY_ENV` (the variable holding the
 * key) and `WEFT_LIVE_STRUCTURED_OUTPUT` are optional.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient, serve, tempProject, trustProject } from "../support/service.ts";
import { probeFiles, timelineOf, waitForRun } from "./support.ts";

const baseURL = Deno.env.get("WEFT_LIVE_BASE_URL");
const model = Deno.env.get("WEFT_LIVE_MODEL");

Deno.test({
  name: "a real model server drives the probe workflow to completed",
  ignore: !baseURL || !model,
  async fn() {
    const keyEnv = Deno.env.get("WEFT_LIVE_KEY_ENV");
    const structuredOutput = Deno.env.get("WEFT_LIVE_STRUCTURED_OUTPUT");
    const entry = {
      provider: Deno.env.get("WEFT_LIVE_PROVIDER") ?? "openai-compatible",
      model,
      baseURL,
      ...(keyEnv ? { apiKeyEnv: keyEnv } : {}),
      ...(structuredOutput ? { structuredOutput } : {}),
    };
    const projectDir = await tempProject({
      "weft.json": JSON.stringify({ models: { default: entry } }),
      ...probeFiles({ maxTurns: 10, maxSeconds: 300 }),
    });
    const configHome = await Deno.makeTempDir({ prefix: "weft-user-" });
    await trustProject(projectDir, configHome);
    const served = await serve(projectDir, { env: { XDG_CONFIG_HOME: configHome } });
    const person = await mcpClient(served, "/internal/mcp");
    try {
      const { run } = await call<{ run: RunView }>(person, "flow", {
        flowName: "probe",
        intent: "say hello",
      });
      const end = await waitForRun(person, run.runId, "ended", (r) => r.status !== "waiting", 300);
      const turns = (await timelineOf(person, run.runId)).filter((event) => event.type === "model_turn");
      console.log(
        `${turns.length} turns:`,
        turns.map((t) => `${t.ms} ms, ${t.inputTokens}/${t.outputTokens} tokens`),
      );
      assert.equal(end.status, "completed", JSON.stringify(end.lastError));
    } finally {
      await closeClient(person);
      await served.stop();
      await Deno.remove(projectDir, { recursive: true });
      await Deno.remove(configHome, { recursive: true });
    }
  },
});
