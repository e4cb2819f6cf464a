/**
 * A person's retry of an interrupted Run: `kill -9` during a model request leaves the Run
 * `RUN_INTERRUPTED` on the next start; `retry_run` (internal endpoints only) resumes it at the same step
 * with a new agent call id, for the same executor: the service's model, or the IDE's agent.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { within } from "../support/deadline.ts";
import { call, callError, closeClient, mcpClient, runWeft, serve } from "../support/service.ts";
import { type Protocol, scriptedServer, turnOf } from "./scripted_server.ts";
import { hang, probeFiles, probeTurn, servedWithModel, timelineOf, waitForRun } from "./support.ts";

for (const protocol of ["openai", "anthropic"] as Protocol[]) {
  Deno.test(`kill -9 during a model request (${protocol}): RUN_INTERRUPTED, then \`weft retry\` completes it with a new call`, async () => {
    let hanging = true;
    const model = scriptedServer(
      protocol,
      (request) => hanging ? { response: () => hang(request) } : probeTurn(turnOf(request)),
    );
    const { served, projectDir, userDir } = await servedWithModel({
      protocol,
      url: model.url,
      files: probeFiles(),
    });
    let restarted: typeof served | undefined;
    try {
      const person = await mcpClient(served, "/internal/mcp");
      const { run } = await call<{ run: RunView }>(person, "flow", {
        flowName: "probe",
        intent: "survive a crash",
      });
      const firstCall = run.pendingAgentCall!.id;
      await within("the model request", model.received(1));
      await served.kill();
      await closeClient(person).catch(() => {});

      restarted = await serve(projectDir, { env: { XDG_CONFIG_HOME: userDir } });
      const again = await mcpClient(restarted, "/internal/mcp");
      try {
        const interrupted = (await call<{ run: RunView }>(again, "get_run", { runId: run.runId })).run;
        assert.equal(interrupted.status, "failed");
        assert.equal(interrupted.lastError?.code, "RUN_INTERRUPTED");
        assert.equal(model.requests.length, 1, "nothing retried the Run by itself");

        hanging = false;
        const cli = await runWeft(["retry", run.runId, "--json"], { cwd: projectDir });
        assert.equal(cli.code, 0, cli.stderr);
        const retried = (JSON.parse(cli.stdout) as { run: RunView }).run;
        assert.equal(retried.status, "waiting");
        assert.notEqual(retried.pendingAgentCall?.id, firstCall);
        assert.equal(retried.lastError, undefined);
        const done = await waitForRun(again, run.runId, "completed", (r) => r.status === "completed");
        assert.equal(done.status, "completed");
        assert.equal(turnOf(model.requests[1]), 0, "the retry starts a fresh conversation");

        const types = (await timelineOf(again, run.runId)).map((event) => event.type);
        const interruptedAt = types.indexOf("run_interrupted");
        assert.ok(interruptedAt > 0, types.join(", "));
        assert.deepEqual(types.slice(interruptedAt, interruptedAt + 3), [
          "run_interrupted",
          "run_retried",
          "agent_call_started",
        ]);
        assert.equal((await callError(again, "retry_run", { runId: run.runId })).code, "CONFLICT");
        const refused = await runWeft(["retry", run.runId], { cwd: projectDir });
        assert.equal(refused.code, 1);
        assert.match(
          refused.stderr,
          /weft retry: CONFLICT: .*cannot be retried[\s\S]*fix: only a Run that failed with RUN_INTERRUPTED/,
        );
      } finally {
        await closeClient(again);
      }
    } finally {
      await restarted?.stop();
      await model.close();
      await Deno.remove(projectDir, { recursive: true });
      await Deno.remove(userDir, { recursive: true });
    }
  });
}

Deno.test("a retried IDE Run waits for the IDE's agent again; retry_run is not offered to IDE agents", async () => {
  const model = scriptedServer("openai", () => ({ text: "unused" }));
  const { served, projectDir, userDir } = await servedWithModel({ protocol: "openai", url: model.url });
  let restarted: typeof served | undefined;
  try {
    const ide = await mcpClient(served, "/mcp");
    const { tools } = await ide.listTools();
    assert.ok(!tools.some((tool) => tool.name === "retry_run"), "retry_run is offered on /mcp");
    const { run } = await call<{ run: RunView }>(ide, "flow", { flowName: "intent", intent: "plan it" });
    await call(ide, "claim_agent_call", {
      runId: run.runId,
      callId: run.pendingAgentCall!.id,
      claimId: "ide-1",
    });
    await served.kill();
    await closeClient(ide).catch(() => {});

    restarted = await serve(projectDir, { env: { XDG_CONFIG_HOME: userDir } });
    const person = await mcpClient(restarted, "/internal/mcp");
    const ide2 = await mcpClient(restarted, "/mcp");
    try {
      const retried = (await call<{ run: RunView }>(person, "retry_run", { runId: run.runId })).run;
      assert.equal(retried.execution.agentExecutor, "mcp_client");
      assert.equal(retried.pendingAgentCall?.phase, "available");
      const ref = { runId: run.runId, callId: retried.pendingAgentCall!.id };
      const claimed = await call<{ ownerToken: string; task: { tools: unknown[] } }>(
        ide2,
        "claim_agent_call",
        {
          ...ref,
          claimId: "ide-1",
        },
      );
      assert.ok(claimed.ownerToken);
      assert.equal(model.requests.length, 0, "the service's model took an IDE Run's call");
      const shown = await call<{ agentCall: { receipts: unknown[] } }>(ide2, "get_agent_call", ref);
      assert.deepEqual(shown.agentCall.receipts, [], "receipts of the old attempt came back");
    } finally {
      await closeClient(person);
      await closeClient(ide2);
    }
  } finally {
    await restarted?.stop();
    await model.close();
    await Deno.remove(projectDir, { recursive: true });
    await Deno.remove(userDir, { recursive: true });
  }
});
