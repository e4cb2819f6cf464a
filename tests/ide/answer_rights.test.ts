/**
 * Who may answer a person's action: the IDE's endpoints answer (and cancel) only the Runs they started, so an
 * agent's call can never confirm for the person at the terminal or in Studio, nor end their Run; the internal
 * endpoints answer any Run.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { call, callError, closeClient, mcpClient, withServedProject } from "../support/service.ts";
import { formClient, PICK_ANSWER, PICK_PROJECT, startPick, toConfirmation } from "./support.ts";

Deno.test("answer rights: /mcp and /mcp/codex cannot answer, interact on or cancel a terminal's or Studio's Run", async () => {
  await withServedProject({ files: PICK_PROJECT }, async (served) => {
    let formsShown = 0;
    const ide = await formClient(served, "/mcp", () => {
      formsShown++;
      return { action: "accept", content: { confirmed: true } };
    });
    const codex = await mcpClient(served, "/mcp/codex");
    const cli = await mcpClient(served, "/internal/mcp");
    const studio = await mcpClient(served, "/internal/mcp/studio");
    try {
      for (const [starter, where] of [[cli, "the terminal"], [studio, "Studio"]] as const) {
        const asking = await startPick(starter);
        const questionsArgs = {
          runId: asking.runId,
          actionId: asking.pendingAction!.id,
          answer: PICK_ANSWER,
        };
        const refusedQuestions = await callError(ide, "answer_ask", questionsArgs);
        assert.equal(refusedQuestions.code, "NOT_ALLOWED");
        assert.equal(refusedQuestions.retryable, false);
        assert.match(refusedQuestions.message, new RegExp(`started in ${where}`, "i"));
        assert.match(refusedQuestions.message, new RegExp(`weft attach ${asking.runId}`));

        // A cancel is final: the IDE's endpoints cannot end the person's Run either.
        for (const client of [ide, codex]) {
          const refusedCancel = await callError(client, "cancel_run", { runId: asking.runId });
          assert.equal(refusedCancel.code, "NOT_ALLOWED");
          assert.match(refusedCancel.message, new RegExp(`weft cancel ${asking.runId}`));
        }

        const confirming = await toConfirmation(starter, asking);
        assert.equal(confirming.pendingAction?.kind, "user_ask_confirmation");
        const confirm = { runId: confirming.runId, actionId: confirming.pendingAction!.id };
        for (const client of [ide, codex]) {
          const refused = await callError(client, "answer_ask", {
            ...confirm,
            answer: { isConfirmed: true },
          });
          assert.equal(refused.code, "NOT_ALLOWED");
        }
        const refusedForm = await callError(ide, "interact", confirm);
        assert.equal(refusedForm.code, "NOT_ALLOWED");
        assert.equal(formsShown, 0, "no form is shown for an action the IDE may not answer");

        // Reading stays open to the IDE, and the action is still the person's, unconsumed.
        const { run, timeline } = await call<{ run: RunView; timeline: { type: string }[] }>(ide, "get_run", {
          runId: confirming.runId,
          timeline: true,
        });
        assert.equal(run.status, "waiting");
        assert.equal(run.pendingAction?.id, confirm.actionId);
        assert.equal(timeline.filter((event) => event.type === "action_answered").length, 1);
        const { runs } = await call<{ runs: RunView[] }>(codex, "list_runs", {});
        assert.ok(runs.some((listed) => listed.runId === run.runId));
        const resource = await ide.readResource({ uri: `weft://runs/${run.runId}` });
        assert.equal(JSON.parse((resource.contents[0] as { text: string }).text).run.status, "waiting");

        // The person answers where they are: either internal endpoint may.
        const answered = await call<{ run: RunView }>(studio, "answer_ask", {
          ...confirm,
          answer: { isConfirmed: true },
        });
        assert.equal(answered.run.status, "completed");
      }

      // A Run the IDE started is the IDE's person's, answered through it as before.
      const own = await toConfirmation(ide, await startPick(ide));
      const done = await call<{ run: RunView }>(ide, "answer_ask", {
        runId: own.runId,
        actionId: own.pendingAction!.id,
        answer: { isConfirmed: true },
      });
      assert.equal(done.run.status, "completed");
    } finally {
      for (const client of [ide, codex, cli, studio]) await closeClient(client);
    }
  });
});
