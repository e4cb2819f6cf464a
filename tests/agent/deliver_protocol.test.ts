/**
 * A `deliver` Run against a real `weft serve`, its agent an MCP SDK client on `/mcp` editing the project
 * with its own tools (the file system), the person on `/internal/mcp`, the project's `verify` command run by
 * the service: a three-task plan where the first task's verify fails once and passes on the second attempt,
 * the service is killed mid-task and the Run resumes at that task, the second needs the person's request for
 * changes, the third waits for the first; and a verify that never passes ends with the person's decision.
 */
import assert from "node:assert/strict";
import type { ActionReview, RunView } from "../../src/engine/views.ts";
import type { Client } from "../support/sdk_test_client.ts";
import {
  call,
  callError,
  closeClient,
  mcpClient,
  serve,
  type ServedProject,
  tempProject,
  trustProject,
} from "../support/service.ts";
import { SPECIFICATION } from "../support/intent_agent.ts";
import { confirmedPlanOverMcp } from "../support/deliver_mcp.ts";
import { listCounts } from "../support/list_workflows.ts";
import { waitForRun } from "../model/support.ts";
import { answer, claim, type Claimed, complete, useTool } from "./support.ts";

/** The project's verify: fails while any source file says BROKEN, printing which. */
const VERIFY =
  'for f in src/*.ts; do if grep -q BROKEN "$f"; then echo "FAIL $f is broken"; exit 1; fi; done; echo ok';

interface Served {
  served: ServedProject;
  ide: Client;
  person: Client;
}

async function open(projectDir: string, configHome: string): Promise<Served> {
  const served = await serve(projectDir, { env: { XDG_CONFIG_HOME: configHome } });
  return { served, ide: await mcpClient(served, "/mcp"), person: await mcpClient(served, "/internal/mcp") };
}

async function close({ served, ide, person }: Served, how: "stop" | "kill"): Promise<void> {
  if (how === "kill") await served.kill();
  await closeClient(ide).catch(() => {});
  await closeClient(person).catch(() => {});
  if (how === "stop") await served.stop();
}

/** Waits until the Run waits for the person or the agent again (the service ran the verify command). */
function settled(client: Client, runId: string): Promise<RunView> {
  return waitForRun(
    client,
    runId,
    "waiting for the person or the agent",
    (run) => run.status !== "running" && !run.pendingCommand,
  );
}

/** The IDE's agent takes the task: claims it, reads its context, edits the file, completes. */
async function implement(
  client: Client,
  run: RunView,
  projectDir: string,
  file: string,
  text: string,
): Promise<{ claimed: Claimed; state: Record<string, unknown>; run: RunView }> {
  const claimed = await claim(client, run, "ide-agent");
  const { state } = await useTool<{ state: Record<string, unknown> }>(client, claimed, "ctx", "context");
  await Deno.mkdir(`${projectDir}/src`, { recursive: true });
  await Deno.writeTextFile(`${projectDir}/${file}`, text);
  return {
    claimed,
    state,
    run: await complete(client, claimed, { outcome: "implemented", summary: `wrote ${file}` }),
  };
}

const item = (run: RunView, id: string) => run.list!.items.find((entry) => entry.id === id)!;

Deno.test("deliver over MCP: verify fails then passes, a kill -9 resumes the task, a request for changes, a task after its dependency", async () => {
  const projectDir = await tempProject({
    "weft.json": JSON.stringify({ commands: { verify: ["sh", "-c", VERIFY] } }),
    "README.md": "# demo\n",
  });
  const configHome = await Deno.makeTempDir({ prefix: "weft-user-" });
  await trustProject(projectDir, configHome);
  let side = await open(projectDir, configHome);
  try {
    const intent = await confirmedPlanOverMcp(side);
    assert.equal(intent.next?.flowName, "deliver");
    let run =
      (await call<{ run: RunView }>(side.ide, "flow", { flowName: "deliver", intent: intent.runId })).run;
    assert.equal(run.list?.current, "T1");
    assert.equal(run.pendingAgentCall?.agentId, "implementer");

    // The agent's task offers no way to mark a task done.
    const claimedFirst = await claim(side.ide, run, "ide-agent");
    assert.deepEqual(claimedFirst.task.tools.map((tool) => tool.id), [
      "context",
      "list",
      "read",
      "write",
      "patch",
    ]);
    const refused = await callError(side.ide, "complete_agent_call", {
      runId: run.runId,
      callId: claimedFirst.callId,
      ownerToken: claimedFirst.ownerToken,
      result: { outcome: "done", summary: "all good" },
    });
    assert.equal(refused.code, "AGENT_OUTPUT_INVALID");
    const { state } = await useTool<{ state: { task: { id: string }; input: { specification: unknown } } }>(
      side.ide,
      claimedFirst,
      "ctx",
      "context",
    );
    assert.equal(state.task.id, "T1");
    assert.deepEqual(state.input.specification, SPECIFICATION);
    await Deno.mkdir(`${projectDir}/src`, { recursive: true });
    await Deno.writeTextFile(`${projectDir}/src/t1.ts`, "export const t1 = BROKEN;\n");
    run = await complete(side.ide, claimedFirst, { outcome: "implemented", summary: "first try" });
    run = await settled(side.ide, run.runId);
    assert.equal(run.pendingAgentCall?.agentId, "implementer", "a failed verify goes back to the agent");
    assert.equal(item(run, "T1").attempts, 2);
    assert.equal(item(run, "T1").verify?.passed, false);
    assert.match(item(run, "T1").verify!.summary, /FAIL src\/t1\.ts is broken/);

    // The second attempt is claimed, and the service is killed in the middle of it.
    const second = await claim(side.ide, run, "ide-agent");
    const seen = await useTool<{ state: { verify: { stdout: { text: string } } } }>(
      side.ide,
      second,
      "c2",
      "context",
    );
    assert.match(
      seen.state.verify.stdout.text,
      /FAIL src\/t1\.ts is broken/,
      "the agent gets the failing output",
    );
    await close(side, "kill");
    side = await open(projectDir, configHome);
    run = (await call<{ run: RunView }>(side.person, "get_run", { runId: run.runId })).run;
    assert.equal(run.status, "failed");
    assert.equal(run.lastError?.code, "RUN_INTERRUPTED");
    assert.equal(run.list?.current, "T1", "the list stands at the task it was in");
    run = (await call<{ run: RunView }>(side.person, "retry_run", { runId: run.runId })).run;
    assert.equal(run.pendingAgentCall?.agentId, "implementer");
    assert.equal(item(run, "T1").status, "running");
    let step = await implement(side.ide, run, projectDir, "src/t1.ts", "export const t1 = 1;\n");
    run = await settled(side.ide, step.run.runId);
    assert.equal(run.pendingAction?.kind, "user_ask_confirmation", "verify passed: the person reviews");
    assert.equal(item(run, "T1").verify?.passed, true);
    const review = (run.pendingAction!.request as ActionReview).evidence?.changes;
    assert.deepEqual(review?.files.map((file) => file.path), ["src/t1.ts"]);
    run = await answer(side.person, run, { isConfirmed: true });
    assert.equal(item(run, "T1").status, "done");
    assert.equal(run.list?.current, "T2");

    // T2: the person asks for changes, and the agent gets them.
    step = await implement(side.ide, run, projectDir, "src/t2.ts", "export const t2 = 2;\n");
    run = await settled(side.ide, step.run.runId);
    run = await answer(side.person, run, { isConfirmed: false, feedback: "export it as two" });
    assert.equal(run.pendingAgentCall?.agentId, "implementer");
    step = await implement(side.ide, run, projectDir, "src/t2.ts", "export const two = 2;\n");
    assert.equal(step.state.reviewFeedback, "export it as two");
    run = await settled(side.ide, step.run.runId);
    const t2Review = (run.pendingAction!.request as ActionReview).evidence?.changes;
    assert.deepEqual(
      t2Review?.files.map((file) => file.path),
      ["src/t2.ts"],
      "only what changed since T2 began",
    );
    run = await answer(side.person, run, { isConfirmed: true });

    // T3 depended on T1, which is done: it runs last.
    assert.equal(run.list?.current, "T3");
    step = await implement(side.ide, run, projectDir, "src/t3.ts", "export const t3 = 3;\n");
    run = await settled(side.ide, step.run.runId);
    run = await answer(side.person, run, { isConfirmed: true });
    assert.equal(run.status, "completed");
    assert.deepEqual(run.list?.counts, listCounts({ done: 3 }));
    // The retry after the kill resumed T1's second attempt; it did not start a third.
    assert.deepEqual(run.list?.items.map((entry) => [entry.id, entry.attempts]), [["T1", 2], ["T2", 2], [
      "T3",
      1,
    ]]);
  } finally {
    await close(side, "stop");
    await Deno.remove(projectDir, { recursive: true });
    await Deno.remove(configHome, { recursive: true });
  }
});

Deno.test("deliver over MCP: a verify that never passes ends with the person's decision, not a silent failure", async () => {
  const projectDir = await tempProject({
    "weft.json": JSON.stringify({ commands: { test: ["sh", "-c", VERIFY] } }),
  });
  const configHome = await Deno.makeTempDir({ prefix: "weft-user-" });
  await trustProject(projectDir, configHome);
  const side = await open(projectDir, configHome);
  try {
    const intent = await confirmedPlanOverMcp(side);
    let run =
      (await call<{ run: RunView }>(side.ide, "flow", { flowName: "deliver", intent: intent.runId })).run;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const step = await implement(
        side.ide,
        run,
        projectDir,
        "src/t1.ts",
        `export const t1 = BROKEN${attempt};\n`,
      );
      run = await settled(side.ide, step.run.runId);
    }
    assert.equal(run.status, "waiting");
    assert.equal(run.pendingAction?.kind, "user_ask_questions", "the person decides: retry, skip or stop");
    assert.equal(item(run, "T1").status, "running");
    assert.equal(item(run, "T1").verify?.passed, false, "the `test` command stood in for a missing `verify`");
    run = await answer(side.person, run, [{ questionId: "decision", isSkipped: false, answer: "stop" }]);
    assert.equal(run.status, "completed");
    assert.equal(run.list?.stopped, true);
    assert.deepEqual(run.list?.items.map((entry) => entry.status), ["failed", "pending", "pending"]);
  } finally {
    await close(side, "stop");
    await Deno.remove(projectDir, { recursive: true });
    await Deno.remove(configHome, { recursive: true });
  }
});
