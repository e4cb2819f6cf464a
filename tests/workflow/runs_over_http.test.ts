/**
 * The workflow tools end to end over HTTP with real SDK clients: a human-only workflow driven to completion
 * on /internal/mcp, `intent` on /mcp and on /internal/mcp, Runs across a SIGKILL, and bad inputs.
 */

import assert from "node:assert/strict";
import {
  call,
  callError,
  closeClient,
  mcpClient,
  serve,
  tempProject,
  withServedProject,
} from "../support/service.ts";
import { REVIEW_ANSWER, REVIEW_RECORDED, reviewManifest, workflowFiles } from "../support/workflows.ts";
import type { ArtifactView, RecordView, RunView } from "../../src/engine/views.ts";

type RunResult = { run: RunView };

/** The files of a project offering the review workflow. */
const REVIEW_PROJECT = workflowFiles(reviewManifest());

Deno.test("a human-only workflow runs to completion on /internal/mcp and commits an Artifact and a Record", async () => {
  await withServedProject({ files: REVIEW_PROJECT }, async (served) => {
    const dir = served.projectDir;
    const cli = await mcpClient(served, "/internal/mcp");
    const studio = await mcpClient(served, "/internal/mcp/studio");
    try {
      const { workflows } = await call<{ workflows: { name: string; ready: boolean; source: string }[] }>(
        cli,
        "list_workflows",
      );
      assert.deepEqual(workflows.find((w) => w.name === "review"), {
        ...workflows.find((w) => w.name === "review"),
        ready: true,
        source: "project",
      });

      let { run } = await call<RunResult>(cli, "flow", { flowName: "review", intent: "Name the release" });
      assert.equal(run.status, "waiting");
      assert.deepEqual(run.execution, { source: "cli", agentExecutor: "service" });
      assert.equal(run.pendingAction?.kind, "user_ask_questions");
      const askId = run.pendingAction!.id;

      const malformed = await callError(cli, "answer_ask", { runId: run.runId, actionId: askId, answer: [] });
      assert.equal(malformed.code, "INVALID_REQUEST");
      ({ run } = await call<RunResult>(cli, "get_run", { runId: run.runId }));
      assert.equal(run.pendingAction?.id, askId, "a malformed answer consumes nothing");

      ({ run } = await call<RunResult>(cli, "answer_ask", {
        runId: run.runId,
        actionId: askId,
        answer: REVIEW_ANSWER,
      }));
      assert.equal(run.pendingAction?.kind, "user_ask_confirmation");
      const stale = await callError(cli, "answer_ask", {
        runId: run.runId,
        actionId: askId,
        answer: REVIEW_ANSWER,
      });
      assert.equal(stale.code, "CONFLICT");

      // The person confirms in Studio: the answer must carry Studio as its source, not the Run's CLI.
      ({ run } = await call<RunResult>(studio, "answer_ask", {
        runId: run.runId,
        actionId: run.pendingAction!.id,
        answer: { isConfirmed: true },
      }));
      assert.equal(run.status, "completed");
      assert.equal(run.pendingAction, undefined);

      const { artifact } = await call<{ artifact: ArtifactView }>(cli, "get_artifact", {
        flowName: "review",
        stageName: "collect",
      });
      assert.equal(artifact.revision, 1);
      assert.deepEqual(artifact.data, REVIEW_RECORDED);
      const { record } = await call<{ record: RecordView }>(cli, "get_record", {
        recordId: artifact.recordId,
      });
      assert.equal(record.runId, run.runId);
      assert.deepEqual(record.data, REVIEW_RECORDED);
      assert.equal(
        (await call<{ record: null }>(cli, "get_record", { recordId: "rec_missing" })).record,
        null,
      );

      const { timeline } = await call<{ timeline: { type: string; source?: string }[] }>(cli, "get_run", {
        runId: run.runId,
        timeline: true,
      });
      assert.deepEqual(
        timeline.filter((event) => event.type === "action_answered").map((event) => event.source),
        ["cli", "studio"],
        "answers carry the source they came through",
      );

      const log = await Deno.readTextFile(`${dir}/.weft/logs/${served.instanceId}.jsonl`);
      const calls = log.trim().split("\n").map((line) => JSON.parse(line)).filter((e) =>
        e.event === "tool.call"
      );
      assert.ok(calls.some((e) => e.tool === "flow" && e.runId === run.runId), "the log can follow one Run");
      assert.ok(
        calls.some((e) => e.tool === "answer_ask" && e.runId === run.runId && e.outcome === "CONFLICT"),
      );
      assert.ok(!log.includes("Name the release") && !log.includes("A fine title"), "no intents or answers");
    } finally {
      await closeClient(cli);
      await closeClient(studio);
    }
  });
});

Deno.test("intent waits for the IDE's agent on /mcp; without a model of weft's, so does one the CLI starts", async () => {
  await withServedProject(async (served) => {
    const ide = await mcpClient(served, "/mcp");
    const cli = await mcpClient(served, "/internal/mcp");
    try {
      const { run } = await call<RunResult>(ide, "flow", { flowName: "intent", intent: "Add a dark mode" });
      assert.equal(run.status, "waiting");
      assert.deepEqual(run.execution, { source: "agent_ide", agentExecutor: "mcp_client" });
      assert.equal(run.pendingAgentCall?.phase, "available");
      assert.equal(run.pendingAction, undefined);

      const { workflows } = await call<
        { workflows: { name: string; ready: boolean; agentExecutor?: string }[] }
      >(
        cli,
        "list_workflows",
      );
      assert.deepEqual(
        workflows.filter((w) => w.name === "intent").map(({ ready, agentExecutor }) => ({
          ready,
          agentExecutor,
        })),
        [{ ready: true, agentExecutor: "mcp_client" }],
      );
      const started =
        (await call<RunResult>(cli, "flow", { flowName: "intent", intent: "Add a light mode" })).run;
      assert.deepEqual(started.execution, { source: "cli", agentExecutor: "mcp_client" });
      const claimed = await call<{ task: { runId: string } }>(ide, "claim_agent_call", {
        runId: started.runId,
        callId: started.pendingAgentCall!.id,
        claimId: "ide-agent",
      });
      assert.equal(claimed.task.runId, started.runId, "the IDE's agent works the Run the terminal started");
    } finally {
      await closeClient(ide);
      await closeClient(cli);
    }
  });
});

Deno.test("after SIGKILL, a Run waiting on a person still waits and completes; one on an agent is interrupted", async () => {
  const dir = await tempProject(REVIEW_PROJECT);
  try {
    const first = await serve(dir);
    let human: RunView, agent: RunView, committed: ArtifactView;
    const before = await mcpClient(first, "/mcp");
    try {
      ({ run: human } = await call<RunResult>(before, "flow", { flowName: "review", intent: "one" }));
      let { run } = await call<RunResult>(before, "flow", { flowName: "review", intent: "committed before" });
      ({ run } = await call<RunResult>(before, "answer_ask", {
        runId: run.runId,
        actionId: run.pendingAction!.id,
        answer: REVIEW_ANSWER,
      }));
      await call(before, "answer_ask", {
        runId: run.runId,
        actionId: run.pendingAction!.id,
        answer: { isConfirmed: true },
      });
      ({ artifact: committed } = await call<{ artifact: ArtifactView }>(before, "get_artifact", {
        flowName: "review",
        stageName: "collect",
      }));
      ({ run: agent } = await call<RunResult>(before, "flow", { flowName: "intent", intent: "two" }));
    } finally {
      await closeClient(before).catch(() => {});
      await first.kill();
    }

    const second = await serve(dir);
    const after = await mcpClient(second, "/mcp");
    try {
      const { run: interrupted } = await call<RunResult>(after, "get_run", { runId: agent.runId });
      assert.equal(interrupted.status, "failed");
      assert.equal(interrupted.lastError?.code, "RUN_INTERRUPTED");
      assert.equal(interrupted.lastError?.retryable, true, "retry_run resumes it");
      assert.equal(interrupted.pendingAgentCall, undefined);

      let { run } = await call<RunResult>(after, "get_run", { runId: human.runId });
      assert.equal(run.status, "waiting");
      assert.equal(run.pendingAction?.id, human.pendingAction!.id);
      ({ run } = await call<RunResult>(after, "answer_ask", {
        runId: run.runId,
        actionId: run.pendingAction!.id,
        answer: REVIEW_ANSWER,
      }));
      ({ run } = await call<RunResult>(after, "answer_ask", {
        runId: run.runId,
        actionId: run.pendingAction!.id,
        answer: { isConfirmed: true },
      }));
      assert.equal(run.status, "completed");

      const { artifact } = await call<{ artifact: ArtifactView }>(after, "get_artifact", {
        artifactId: committed.artifactId,
        revision: 1,
      });
      assert.deepEqual(artifact.data, committed.data);
      const current = await call<{ artifact: ArtifactView }>(after, "get_artifact", {
        flowName: "review",
        stageName: "collect",
      });
      assert.equal(current.artifact.revision, 2);
      const { record } = await call<{ record: RecordView }>(after, "get_record", {
        recordId: committed.recordId,
      });
      assert.deepEqual(record.data, committed.data);
    } finally {
      await closeClient(after);
      await second.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bad inputs to every workflow tool are classified and change nothing", async () => {
  await withServedProject({ files: REVIEW_PROJECT }, async (served) => {
    const dir = served.projectDir;
    const client = await mcpClient(served, "/mcp");
    try {
      const { run } = await call<RunResult>(client, "flow", { flowName: "review", intent: "keep me" });
      const cases: [string, Record<string, unknown>, string][] = [
        ["flow", {}, "INVALID_REQUEST"],
        ["flow", { flowName: "review", intent: "   " }, "INVALID_REQUEST"],
        ["flow", { flowName: "review", intent: 42 }, "INVALID_REQUEST"],
        ["flow", { flowName: "nope", intent: "x" }, "NOT_FOUND"],
        ["flow", { flowName: "review", intent: "x", extra: true }, "INVALID_REQUEST"],
        ["list_workflows", { x: 1 }, "INVALID_REQUEST"],
        ["get_run", { runId: "run_nope" }, "NOT_FOUND"],
        ["get_run", { runId: "" }, "INVALID_REQUEST"],
        ["get_run", { runId: "x".repeat(513) }, "INVALID_REQUEST"],
        ["list_runs", { limit: 0 }, "INVALID_REQUEST"],
        ["list_runs", { status: "sleeping" }, "INVALID_REQUEST"],
        ["list_runs", { cursor: "garbage" }, "INVALID_REQUEST"],
        ["answer_ask", { runId: run.runId, actionId: "act_nope", answer: REVIEW_ANSWER }, "CONFLICT"],
        ["answer_ask", { runId: "run_nope", actionId: "act_nope", answer: REVIEW_ANSWER }, "NOT_FOUND"],
        [
          "answer_ask",
          { runId: run.runId, actionId: run.pendingAction!.id, answer: "yes" },
          "INVALID_REQUEST",
        ],
        [
          "answer_ask",
          { runId: run.runId, actionId: run.pendingAction!.id, answer: { isConfirmed: true } },
          "INVALID_REQUEST",
        ],
        ["cancel_run", { runId: "run_nope" }, "NOT_FOUND"],
        ["get_record", { recordId: 7 }, "INVALID_REQUEST"],
        ["get_artifact", {}, "INVALID_REQUEST"],
        ["get_artifact", { flowName: "review" }, "INVALID_REQUEST"],
        ["get_artifact", { artifactId: "a", flowName: "review", stageName: "collect" }, "INVALID_REQUEST"],
        ["list_artifacts", { limit: 201 }, "INVALID_REQUEST"],
        ["list_artifacts", { cursor: "garbage" }, "INVALID_REQUEST"],
        ["no_such_tool", {}, "INVALID_REQUEST"],
      ];
      for (const [tool, args, code] of cases) {
        const error = await callError(client, tool, args);
        assert.equal(error.code, code, `${tool} ${JSON.stringify(args).slice(0, 80)}: ${error.message}`);
        assert.ok(!error.message.includes(dir), "errors never show a path of the machine");
      }
      const { run: unchanged } = await call<RunResult>(client, "get_run", { runId: run.runId });
      assert.deepEqual(unchanged, run);

      const { run: cancelled } = await call<RunResult>(client, "cancel_run", { runId: run.runId });
      assert.equal(cancelled.status, "cancelled");
      const again = await callError(client, "answer_ask", {
        runId: run.runId,
        actionId: run.pendingAction!.id,
        answer: REVIEW_ANSWER,
      });
      assert.equal(again.code, "CONFLICT");
    } finally {
      await closeClient(client);
    }
  });
});
