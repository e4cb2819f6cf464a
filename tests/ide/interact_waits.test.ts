/**
 * `interact` while a person takes their time: slow answers, progress heartbeats, and races between open
 * forms and `answer_ask`, where exactly one answer may win.
 *
 * @module
 */

import assert from "node:assert/strict";
import { unwrapToolResult } from "../../src/client/weft_client.ts";
import type { RunView } from "../../src/engine/views.ts";
import { within } from "../support/deadline.ts";
import { call, callError, closeClient, withServedProject } from "../support/service.ts";
import { formClient, type Interaction, PICK_ANSWER, PICK_PROJECT, startPick } from "./support.ts";

const ACCEPT = { action: "accept" as const, content: { destination: "local", format: "md", owner: "Ada" } };

Deno.test("interact keeps the client informed while a person answers, and lets exactly one answer win", async (t) => {
  await withServedProject({ files: PICK_PROJECT }, async (served) => {
    const firstBeat = Promise.withResolvers<void>();
    const slow = await formClient(served, "/mcp", async () => {
      // This person answers only once the client has heard that the form is open and waiting. (That the
      // beats go on every interval is proven in process, in tests/mcp/ask_person.test.ts.)
      await within("the first progress beat of the open form", firstBeat.promise);
      return ACCEPT;
    });
    const formOpen = { first: Promise.withResolvers<void>(), second: Promise.withResolvers<void>() };
    const first = await formClient(served, "/mcp", async (_form, withdrawn) => {
      formOpen.first.resolve();
      await formOpen.second.promise;
      return withdrawn.aborted ? { action: "cancel" } : ACCEPT;
    });
    const second = await formClient(served, "/mcp/codex", (_form, withdrawn) => {
      formOpen.second.resolve();
      // This person never answers; the form must be withdrawn once someone else has.
      return new Promise((resolve) =>
        withdrawn.addEventListener("abort", () => resolve({ action: "cancel" }))
      );
    });
    try {
      await t.step("the client hears progress while the form is open, then gets the answer", async () => {
        const run = await startPick(slow);
        const progress: number[] = [];
        const result = unwrapToolResult<Interaction>(
          await slow.callTool(
            { name: "interact", arguments: { runId: run.runId, actionId: run.pendingAction!.id } },
            undefined,
            {
              onprogress: (update) => {
                progress.push(update.progress);
                firstBeat.resolve();
              },
              resetTimeoutOnProgress: true,
            },
          ),
        );
        assert.equal(result.interaction, "answered");
        assert.equal(result.run.pendingAction?.kind, "user_ask_confirmation");
        assert.deepEqual(progress.slice(0, 1), [1], "the client that asked for progress got it");
      });

      await t.step("two open forms and answer_ask: one wins, the rest get CONFLICT", async () => {
        const run = await startPick(first);
        const args = { runId: run.runId, actionId: run.pendingAction!.id };
        const firstCall = first.callTool({ name: "interact", arguments: args });
        await formOpen.first.promise;
        const secondCall = second.callTool({ name: "interact", arguments: args });
        // The first person submits only once the second form is open too, so both race for real.
        const [won, lost] = [unwrapToolResult<Interaction>(await firstCall), await secondCall];
        assert.equal(won.interaction, "answered");
        assert.equal(lost.isError, true);
        assert.equal(JSON.parse((lost.content as { text: string }[])[0].text).error.code, "CONFLICT");
        const late = await callError(first, "answer_ask", { ...args, answer: PICK_ANSWER });
        assert.equal(late.code, "CONFLICT");
        const { timeline } = await call<{ timeline: { type: string; actionId?: string }[] }>(
          first,
          "get_run",
          {
            runId: run.runId,
            timeline: true,
          },
        );
        const answers = timeline.filter((event) =>
          event.type === "action_answered" && event.actionId === args.actionId
        );
        assert.equal(answers.length, 1);
      });

      await t.step(
        "answer_ask while a form is open withdraws the form and interact gets CONFLICT",
        async () => {
          formOpen.second = Promise.withResolvers<void>();
          const run = await startPick(second);
          const args = { runId: run.runId, actionId: run.pendingAction!.id };
          const open = second.callTool({ name: "interact", arguments: args });
          await formOpen.second.promise;
          const answered = await call<{ run: RunView }>(first, "answer_ask", {
            ...args,
            answer: PICK_ANSWER,
          });
          assert.equal(answered.run.pendingAction?.kind, "user_ask_confirmation");
          const result = await open;
          assert.equal(result.isError, true);
          assert.equal(JSON.parse((result.content as { text: string }[])[0].text).error.code, "CONFLICT");
        },
      );
    } finally {
      await closeClient(slow);
      await closeClient(first);
      await closeClient(second);
    }
  });
});
