/**
 * The model commands of the terminal: `weft models` lists the roles without the network, `weft doctor`
 * asks each role's server whether it answers and knows the model, with a fix for each failure.
 */
import assert from "node:assert/strict";
import { runWeft, tempProject } from "../support/service.ts";
import { scriptedServer } from "./scripted_server.ts";

Deno.test("weft models lists the roles; weft doctor checks each one's server with a fix line", async () => {
  const model = scriptedServer("openai", () => ({
    response: () => Response.json({ object: "list", data: [{ id: "qwen3:8b" }, { id: "llama3.2" }] }),
  }));
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const downPort = closed.addr.port;
  closed.close();
  const projectDir = await tempProject({
    "weft.json": JSON.stringify({
      models: {
        default: { provider: "openai-compatible", model: "qwen3:8b", baseURL: `${model.url}/v1` },
        typo: { provider: "openai-compatible", model: "qwen3:80b", baseURL: `${model.url}/v1` },
        down: { provider: "openai-compatible", model: "m", baseURL: `http://127.0.0.1:${downPort}/v1` },
        hosted: { provider: "anthropic", model: "claude-sonnet-4-5", apiKeyEnv: "WEFT_TEST_UNSET_KEY" },
      },
    }),
  });
  const userDir = await Deno.makeTempDir({ prefix: "weft-user-" });
  const env = { XDG_CONFIG_HOME: userDir, NO_COLOR: "1" };
  try {
    const trusted = await runWeft(["trust", "--yes"], { cwd: projectDir, env });
    assert.equal(trusted.code, 0, trusted.stderr);
    const listed = await runWeft(["models", "--json"], { cwd: projectDir, env });
    assert.equal(listed.code, 0, listed.stderr);
    const { roles } = JSON.parse(listed.stdout) as {
      roles: { role: string; ready: boolean; reason?: string }[];
    };
    assert.deepEqual(roles.map((r) => [r.role, r.ready]), [
      ["default", true],
      ["typo", true],
      ["down", true],
      ["hosted", false],
    ]);
    assert.match(roles[3].reason!, /WEFT_TEST_UNSET_KEY \(models.hosted.apiKeyEnv\) is not set/);
    assert.equal(model.requests.length, 0, "weft models went to the network");
    const human = await runWeft(["models"], { cwd: projectDir, env });
    assert.match(
      human.stdout,
      /default +ready +openai-compatible +qwen3:8b +http:\/\/127\.0\.0\.1:\d+\/v1 +weft.json \(trusted\) +none/,
    );

    const doctor = await runWeft(["doctor", "--json"], { cwd: projectDir, env });
    const { findings } = JSON.parse(doctor.stdout) as {
      findings: { check: string; state: string; message: string; fix?: string }[];
    };
    const models = findings.filter((f) => f.check === "model");
    assert.equal(models.length, 4, JSON.stringify(findings));
    assert.equal(models[0].state, "ok");
    assert.match(models[0].message, /models.default .*answers and knows the model/);
    assert.equal(models[1].state, "problem");
    assert.match(models[1].message, /does not list the model "qwen3:80b" \(it lists: qwen3:8b, llama3.2\)/);
    assert.match(models[1].fix!, /set models.typo.model to one it lists/);
    assert.equal(models[2].state, "problem");
    assert.match(models[2].message, /the server cannot be reached/);
    assert.match(models[2].fix!, /start the model server, or correct models.down.baseURL/);
    assert.equal(models[3].state, "problem");
    assert.match(models[3].message, /WEFT_TEST_UNSET_KEY/);
    assert.ok(
      model.requests.every((r) => r.path === "/v1/models"),
      "doctor sent more than a model list request",
    );
  } finally {
    await model.close();
    await Deno.remove(projectDir, { recursive: true });
    await Deno.remove(userDir, { recursive: true });
  }
});
