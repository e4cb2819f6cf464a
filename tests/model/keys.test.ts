/**
 * Model keys: a keyless loopback model is sent no key header at all, whatever key variables the
 * environment holds; a configured key variable's value goes into its provider's header and nowhere else a
 * person or a log can see: not the service log, a timeline, an error, `status`, or any CLI output.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient, runWeft } from "../support/service.ts";
import { type Protocol, type RecordedRequest, scriptedServer, turnOf } from "./scripted_server.ts";
import { probeFiles, probeTurn, servedWithModel, serviceLogs, TEST_KEY, waitForRun } from "./support.ts";

/** What the SDKs would pick up by themselves if weft let them: never sent. */
const AMBIENT = { OPENAI_API_KEY: "sk-ambient-openai-5c2e9d", ANTHROPIC_API_KEY: "sk-ant-ambient-8a41f7" };

const ended = (run: RunView) => run.status !== "running" && run.status !== "waiting";

for (const protocol of ["openai", "anthropic"] as Protocol[]) {
  const modelName = protocol === "openai" ? "scripted-gpt" : "scripted-claude";
  const modelList = () => Response.json({ data: [{ id: modelName }] });

  Deno.test(`a keyless loopback model (${protocol}) is sent no key header at all`, async () => {
    const model = scriptedServer(
      protocol,
      (r) => r.path.endsWith("/models") ? { response: modelList } : probeTurn(turnOf(r)),
    );
    const { served, projectDir, userDir } = await servedWithModel({
      protocol,
      url: model.url,
      files: probeFiles(),
      env: AMBIENT,
    });
    const person = await mcpClient(served, "/internal/mcp");
    try {
      const { run } = await call<{ run: RunView }>(person, "flow", { flowName: "probe", intent: "keyless" });
      const done = await waitForRun(person, run.runId, "ended", ended);
      assert.equal(done.status, "completed", JSON.stringify(done));
      const doctor = await runWeft(["doctor", "--json"], {
        cwd: projectDir,
        env: { XDG_CONFIG_HOME: userDir, ...AMBIENT },
      });
      assert.match(doctor.stdout, /answers and knows the model/);
      assert.deepEqual(
        model.requests.map((r) => r.path).sort(),
        [
          ...Array(3).fill(protocol === "openai" ? "/v1/chat/completions" : "/v1/messages"),
          "/v1/models",
        ].sort(),
      );
      for (const request of model.requests) assertNoKeyHeader(request);
    } finally {
      await closeClient(person);
      await served.stop();
      await model.close();
      await Deno.remove(projectDir, { recursive: true });
      await Deno.remove(userDir, { recursive: true });
    }
  });

  Deno.test(`a configured key (${protocol}) is sent in its header and shows up nowhere else`, async () => {
    let refuse = false;
    const echo = `invalid key ${TEST_KEY} (Authorization: Bearer ${TEST_KEY})`;
    const model = scriptedServer(protocol, (r) => {
      // Providers that echo what they got: the models list answers 500, the refused turn 401.
      if (r.path.endsWith("/models")) {
        return { response: () => Response.json({ error: { message: echo } }, { status: 500 }) };
      }
      if (refuse) return { response: () => Response.json({ error: { message: echo } }, { status: 401 }) };
      return probeTurn(turnOf(r));
    });
    const keyEnv = "WEFT_TEST_KEY_KEYS";
    const { served, projectDir, userDir } = await servedWithModel({
      protocol,
      url: model.url,
      keyEnv,
      files: probeFiles(),
      env: AMBIENT,
    });
    const env = { XDG_CONFIG_HOME: userDir, NO_COLOR: "1", [keyEnv]: TEST_KEY, ...AMBIENT };
    const person = await mcpClient(served, "/internal/mcp");
    const ide = await mcpClient(served, "/mcp");
    const seen: string[] = [];
    try {
      const start = (intent: string) => call<{ run: RunView }>(person, "flow", { flowName: "probe", intent });
      const good = await waitForRun(person, (await start("keyed")).run.runId, "ended", ended);
      assert.equal(good.status, "completed", JSON.stringify(good));
      refuse = true;
      const refused = await waitForRun(person, (await start("refused")).run.runId, "ended", ended);
      assert.equal(refused.lastError?.code, "MODEL_REQUEST_FAILED", JSON.stringify(refused));
      assert.match(
        refused.lastError!.message,
        /HTTP 401: invalid key \[redacted\] \(Authorization: Bearer \[redacted\]\)$/,
      );

      const chats = model.requests.filter((r) => !r.path.endsWith("/models"));
      assert.equal(chats.length, 4);
      for (const request of chats) {
        if (protocol === "openai") {
          assert.equal(request.headers.authorization, `Bearer ${TEST_KEY}`);
          assert.equal(request.headers["x-api-key"], undefined);
        } else {
          assert.equal(request.headers["x-api-key"], TEST_KEY);
          assert.equal(request.headers.authorization, undefined);
        }
        for (const ambient of Object.values(AMBIENT)) {
          assert.ok(!JSON.stringify(request.headers).includes(ambient), "an ambient key variable was sent");
        }
      }

      for (const runId of [good.runId, refused.runId]) {
        seen.push(JSON.stringify(await call(person, "get_run", { runId, timeline: true })));
      }
      seen.push(JSON.stringify(await call(person, "list_runs", {})));
      seen.push(JSON.stringify(await call(person, "status")));
      seen.push(JSON.stringify(await call(ide, "status")));
      for (
        const args of [
          ["status"],
          ["status", "--json"],
          ["models"],
          ["models", "--json"],
          ["doctor"],
          ["doctor", "--json"],
          ["runs"],
          ["run", refused.runId],
          ["run", refused.runId, "--json"],
          ["logs"],
        ]
      ) {
        const out = await runWeft(args, { cwd: projectDir, env });
        seen.push(`weft ${args.join(" ")}: ${out.stdout}\n${out.stderr}`);
      }
      assert.match(seen.join("\n"), /listing models answered HTTP 500: .*invalid key \[redacted\]/);
    } finally {
      await closeClient(person);
      await closeClient(ide);
      await served.stop();
      await model.close();
      seen.push(serviceLogs(projectDir));
      await Deno.remove(projectDir, { recursive: true });
      await Deno.remove(userDir, { recursive: true });
    }
    for (const text of seen) {
      assert.ok(!text.includes(TEST_KEY), `the key shows up in: ${text.slice(0, 300)}`);
    }
  });
}

function assertNoKeyHeader(request: RecordedRequest): void {
  assert.equal(request.headers.authorization, undefined, `${request.path} carried an Authorization header`);
  assert.equal(request.headers["x-api-key"], undefined, `${request.path} carried an x-api-key header`);
  for (const ambient of Object.values(AMBIENT)) {
    assert.ok(!JSON.stringify(request.headers).includes(ambient), "an ambient key variable was sent");
  }
}
