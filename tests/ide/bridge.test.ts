/**
 * `weft mcp`, the stdio bridge, end to end: an SDK stdio client drives an `intent` Run to its first
 * confirmation through it, a person answers the forwarded form, and the bridge starts a stopped service and
 * rejoins a restarted one.
 *
 * @module
 */

import assert from "node:assert/strict";
import { ElicitRequestSchema } from "../support/sdk_test_client.ts";
import { Client } from "../support/sdk_test_client.ts";
import { bridgeTransport, spawnBridge } from "../support/bridge.ts";
import type { RunView } from "../../src/engine/views.ts";
import { isProcessAlive } from "../../src/weft_dir/process.ts";
import { call, runWeft, serve, tempProject } from "../support/service.ts";
import { claim, complete, useTool } from "../agent/support.ts";
import { specification } from "../support/intent_agent.ts";
import { initializeRequest } from "../support/jsonrpc.ts";
import { StreamText, within } from "../support/deadline.ts";
import type { FormRequest, Interaction } from "./support.ts";

Deno.test("weft mcp bridges an IDE to a service it starts, forms included", async () => {
  const projectDir = await tempProject();
  try {
    const stopped = await serve(projectDir);
    await stopped.stop();
    const forms: FormRequest[] = [];
    const client = new Client({ name: "ide-over-stdio", version: "0.0.0" }, {
      capabilities: { elicitation: { form: {} } },
    });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      forms.push(request.params as unknown as FormRequest);
      return { action: "accept", content: { decision: "confirm" } };
    });
    const transport = bridgeTransport(projectDir);
    try {
      await client.connect(transport);
      const { service } = await call<{ service: { pid: number; endpoint: { path: string } } }>(
        client,
        "status",
      );
      assert.notEqual(service.pid, stopped.pid, "a new service was started");
      assert.ok(isProcessAlive(service.pid));
      assert.equal(service.endpoint.path, "/mcp");

      let run =
        (await call<{ run: RunView }>(client, "flow", { flowName: "intent", intent: "Export CSV" })).run;
      const claimed = await claim(client, run, "bridge-agent");
      await useTool(client, claimed, "t1", "submit_specification", {
        value: specification([{ id: "R1", statement: "Reports export as CSV" }]),
      });
      run = await complete(client, claimed, { outcome: "ready" });
      assert.equal(run.pendingAction?.kind, "user_ask_confirmation");

      const result = await call<Interaction>(client, "interact", {
        runId: run.runId,
        actionId: run.pendingAction!.id,
      });
      assert.equal(result.interaction, "answered");
      assert.equal(result.run.cursor.stageName, "plan");
      assert.equal(forms.length, 1);
      assert.match(forms[0].message, /Summary: Export reports as CSV files\./);

      // The service stops: the bridge starts it again and the IDE's session carries on.
      assert.equal((await runWeft(["stop", "--project", projectDir])).code, 0);
      const afterStop = await call<{ service: { pid: number } }>(client, "status");
      assert.notEqual(afterStop.service.pid, service.pid);
      const { run: again } = await call<{ run: RunView }>(client, "get_run", { runId: run.runId });
      assert.equal(again.runId, run.runId);

      // Another instance replaces it (the old session is unknown there): the bridge joins that one too.
      assert.equal((await runWeft(["stop", "--project", projectDir])).code, 0);
      assert.equal((await runWeft(["start", "--project", projectDir])).code, 0);
      const afterRestart = await call<{ service: { pid: number } }>(client, "status");
      assert.notEqual(afterRestart.service.pid, afterStop.service.pid);
    } finally {
      await client.close();
      const stop = await runWeft(["stop", "--project", projectDir]);
      assert.equal(stop.code, 0, stop.stderr);
    }
  } finally {
    await Deno.remove(projectDir, { recursive: true });
  }
});

Deno.test("weft mcp answers with a JSON-RPC error when no service can start, and ends with stdin", async () => {
  const dir = await Deno.makeTempDir({ prefix: "weft-test-" });
  // A file where the state folder belongs: the project exists, but no service can start in it.
  await Deno.writeTextFile(`${dir}/.weft`, "not a folder");
  const bridge = spawnBridge(dir);
  const stdout = new StreamText(bridge.stdout, "the stdout of weft mcp");
  try {
    const writer = bridge.stdin.getWriter();
    await writer.write(new TextEncoder().encode(JSON.stringify(initializeRequest("ide")) + "\n"));
    const lineEnd = await stdout.until("\n");
    const reply = JSON.parse(stdout.text.slice(0, lineEnd));
    assert.equal(reply.id, 1);
    assert.equal(reply.error.code, -32000);
    assert.match(reply.error.message, /could not start the weft service/);
    await writer.close();
    const status = await within("weft mcp to exit once its stdin closed", bridge.status);
    assert.equal(status.code, 0);
    assert.equal(status.signal, null);
  } finally {
    await stdout.cancel();
    try {
      bridge.kill("SIGKILL");
    } catch {
      // ended, as it should
    }
    await bridge.status;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("requests in flight when stdin closes are answered before weft mcp exits", async () => {
  const projectDir = await tempProject();
  const served = await serve(projectDir);
  const bridge = spawnBridge(projectDir);
  try {
    // What `printf '<initialize>\n<tools/list>\n' | weft mcp` sends: both lines, then the end of input.
    const lines = [
      initializeRequest("ide"),
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ].map((message) => JSON.stringify(message) + "\n").join("");
    const writer = bridge.stdin.getWriter();
    await writer.write(new TextEncoder().encode(lines));
    await writer.close();
    const output = await within("weft mcp to answer and exit", bridge.output());
    assert.equal(output.code, 0);
    const answers = new TextDecoder().decode(output.stdout).trim().split("\n").map((line) =>
      JSON.parse(line)
    );
    assert.deepEqual(answers.map((answer) => answer.id), [1, 2]);
    assert.ok(answers[0].result.serverInfo, JSON.stringify(answers[0]));
    assert.ok(answers[1].result.tools.length, JSON.stringify(answers[1]));
  } finally {
    await served.stop();
    await Deno.remove(projectDir, { recursive: true });
  }
});
