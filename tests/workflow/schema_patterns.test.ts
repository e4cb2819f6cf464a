/**
 * A workflow's `pattern` cannot freeze the service: patterns are matched in linear time, so the answer that
 * backtracking took a minute over is judged at once while other clients keep being answered, and a pattern
 * only backtracking can run is refused at load, naming the file, the schema and the pattern.
 */

import assert from "node:assert/strict";
import { call, callError, closeClient, mcpClient, withServedProject } from "../support/service.ts";
import { within } from "../support/deadline.ts";
import { humanFlow, workflowFiles } from "../support/workflows.ts";
import type { RunView, WorkflowView } from "../../src/engine/views.ts";

/** The pattern of the finding: nested quantifiers, exponential for a backtracking engine. */
const WORDS = "^(\\w+\\s?)*$";

function patternFlow(name: string, pattern: string) {
  return humanFlow({
    name,
    title: "Name the release",
    description: "Asks for a release name made of words.",
    questions: [{ id: "title", question: "What is the release called?" }],
    state: {
      schema: {
        type: "object",
        properties: {
          answers: { type: "array", items: { properties: { answer: { type: "string", pattern } } } },
          reviewFeedback: { type: "string" },
        },
      },
      initial: {},
    },
    check: null,
  });
}

Deno.test("schema patterns: an answer built to backtrack is judged at once, and status answers meanwhile", async () => {
  const files = { ...workflowFiles(patternFlow("words", WORDS)) };
  await withServedProject({ files }, async (served) => {
    const person = await mcpClient(served, "/internal/mcp");
    const other = await mcpClient(served, "/mcp");
    try {
      const { run } = await call<{ run: RunView }>(person, "flow", { flowName: "words", intent: "v2" });
      const actionId = run.pendingAction!.id;
      // Sixty word characters and a mark: a backtracking engine tries 2^60 splits before saying no.
      const hostile = [{ questionId: "title", isSkipped: false, answer: `${"a".repeat(60)}!` }];
      const [refused, status] = await within(
        "the hostile answer's verdict and another client's status",
        Promise.all([
          callError(person, "answer_ask", { runId: run.runId, actionId, answer: hostile }),
          call<{ service: { name: string } }>(other, "status"),
        ]),
      ).catch(async (error) => {
        // A service stuck in a match would never close its sessions or stop: end it so the test fails.
        await served.kill();
        throw error;
      });
      assert.equal(refused.code, "INVALID_REQUEST");
      assert.match(refused.message, /must match pattern/);
      assert.equal(status.service.name, "weft");
      const good = [{ questionId: "title", isSkipped: false, answer: "Spring cleaning" }];
      const answered = await call<{ run: RunView }>(person, "answer_ask", {
        runId: run.runId,
        actionId,
        answer: good,
      });
      assert.equal(answered.run.pendingAction?.kind, "user_ask_confirmation");
    } finally {
      await closeClient(person);
      await closeClient(other);
    }
  });
});

Deno.test("schema patterns: a backreference or lookaround is refused at load, naming file, schema and pattern", async () => {
  const files = {
    ...workflowFiles(patternFlow("echo", "^(\\w)\\1$")),
    ...workflowFiles(patternFlow("ahead", "^(?=\\w)\\w+$")),
    ...workflowFiles(patternFlow("words", WORDS)),
  };
  await withServedProject({ files }, async (served) => {
    const client = await mcpClient(served, "/mcp");
    try {
      const { workflows } = await call<{ workflows: WorkflowView[] }>(client, "list_workflows");
      const byName = new Map(workflows.map((workflow) => [workflow.name, workflow]));
      assert.equal(byName.get("words")?.available, true);
      for (const [name, pattern] of [["echo", "^(\\w)\\1$"], ["ahead", "^(?=\\w)\\w+$"]]) {
        const view = byName.get(name);
        assert.equal(view?.available, false, name);
        assert.ok(
          view?.reason?.startsWith(`workflows/${name}/workflow.json#/stages/collect/state/schema: `),
          view?.reason,
        );
        assert.ok(
          view?.reason?.includes(`pattern ${JSON.stringify(pattern)} is not supported`),
          view?.reason,
        );
      }
    } finally {
      await closeClient(client);
    }
  });
});
