/**
 * `interact` end to end: a real `weft serve`, real SDK clients that declare form elicitation, and scripted
 * people answering the forms.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { ElicitResult } from "../support/sdk_test_client.ts";
import type { RunView } from "../../src/engine/views.ts";
import { call, callError, closeClient, mcpClient, withServedProject } from "../support/service.ts";
import {
  choices,
  formClient,
  type FormRequest,
  interact,
  PICK_PROJECT,
  startPick,
  toConfirmation,
} from "./support.ts";

Deno.test("interact turns pending actions into forms and answers them like answer_ask", async (t) => {
  await withServedProject({ files: PICK_PROJECT }, async (served) => {
    let reply: (form: FormRequest) => ElicitResult = () => ({ action: "cancel" });
    let shown: FormRequest | undefined;
    const ide = await formClient(served, "/mcp", (form) => {
      shown = form;
      return reply(form);
    });
    const plain = await mcpClient(served, "/mcp");
    const internal = await mcpClient(served, "/internal/mcp", {
      capabilities: { elicitation: { form: {} } },
    });
    const timeline = async (run: RunView) =>
      (await call<{ timeline: Record<string, unknown>[] }>(ide, "get_run", {
        runId: run.runId,
        timeline: true,
      }))
        .timeline;
    try {
      await t.step("questions: options, skip and written answers", async () => {
        const run = await startPick(ide);
        reply = () => ({
          action: "accept",
          content: { destination: "wiki", format: "__skip", notes: "  ", owner: "Ada" },
        });
        const result = await interact(ide, run);
        assert.equal(result.interaction, "answered");
        assert.equal(result.run.pendingAction?.kind, "user_ask_confirmation");
        const form = shown!;
        assert.match(form.message, /“Publish the weekly report”/);
        assert.deepEqual(choices(form, "destination"), ["local", "wiki"]);
        assert.deepEqual(choices(form, "format"), ["md", "pdf", "__other", "__skip"]);
        assert.equal(form.requestedSchema.properties.notes.oneOf, undefined);
        assert.deepEqual(form.requestedSchema.required, ["destination", "format", "owner"]);
        const answered = (await timeline(run)).filter((event) => event.type === "action_answered");
        assert.equal(answered.length, 1);
        assert.equal(answered[0].source, "agent_ide");
        assert.equal(answered[0].channel, "form", "the person answered in the IDE's own form");
        assert.deepEqual(answered[0].answer, [
          { questionId: "destination", isSkipped: false, answer: "wiki", label: "Team wiki" },
          { questionId: "format", isSkipped: true },
          { questionId: "notes", isSkipped: true },
          { questionId: "owner", isSkipped: false, answer: "Ada" },
        ]);
      });

      await t.step(
        "questions: a closed choice offers no Other; one that allows other answers takes a written one",
        async () => {
          const run = await startPick(ide);
          reply = (form) => {
            const other = choices(form, "format").find((value) => value.includes("other"))!;
            return {
              action: "accept",
              content: { destination: "local", format: other, format_other: "AsciiDoc", owner: "Grace" },
            };
          };
          const result = await interact(ide, run);
          assert.equal(result.interaction, "answered");
          assert.ok(!choices(shown!, "destination").some((value) => value.includes("other")));
          assert.deepEqual(
            Object.keys(shown!.requestedSchema.properties).filter((key) => key.endsWith("_other")),
            ["format_other"],
          );
          const answered = (await timeline(run)).filter((event) => event.type === "action_answered");
          assert.deepEqual((answered.at(-1)?.answer as { answer?: string }[])[1], {
            questionId: "format",
            isSkipped: false,
            answer: "AsciiDoc",
          });
        },
      );

      await t.step("confirmation: the context is readable text, and confirm completes the Run", async () => {
        const run = await toConfirmation(ide, await startPick(ide));
        reply = () => ({ action: "accept", content: { decision: "confirm" } });
        const result = await interact(ide, run);
        assert.equal(result.interaction, "answered");
        assert.equal(result.run.status, "completed");
        assert.match(shown!.message, /Proposal:\n {2}Title: Weekly report\n {2}Sections:\n {4}- Highlights/);
        assert.match(shown!.message, /- Destination: /);
        assert.ok(!shown!.message.includes("{"), "no JSON punctuation in the message");
        assert.deepEqual(choices(shown!, "decision"), ["confirm", "revise"]);
      });

      await t.step("confirmation: revise records the feedback and loops back", async () => {
        const run = await toConfirmation(ide, await startPick(ide));
        reply = () => ({
          action: "accept",
          content: { decision: "revise", feedback: "Send it to the wiki too" },
        });
        const result = await interact(ide, run);
        assert.equal(result.interaction, "answered");
        assert.equal(result.run.status, "waiting");
        assert.equal(result.run.pendingAction?.kind, "user_ask_questions");
        const answered = (await timeline(run)).filter((event) => event.type === "action_answered");
        assert.deepEqual(answered.at(-1)?.answer, {
          isConfirmed: false,
          feedback: "Send it to the wiki too",
        });
      });

      await t.step(
        "declined or cancelled forms dismiss; the Run keeps waiting on the same action",
        async () => {
          const run = await startPick(ide);
          for (const action of ["decline", "cancel"] as const) {
            reply = () => ({ action });
            const result = await interact(ide, run);
            assert.equal(result.interaction, "dismissed");
            assert.equal(result.run.status, "waiting");
            assert.equal(result.run.pendingAction?.id, run.pendingAction!.id);
          }
        },
      );

      await t.step("malformed or incomplete replies are INVALID_REQUEST and consume nothing", async () => {
        const run = await toConfirmation(ide, await startPick(ide));
        const malformed: Record<string, unknown>[] = [
          { decision: "maybe" },
          {},
          { decision: "revise" },
          { decision: "revise", feedback: "   " },
        ];
        for (const content of malformed) {
          reply = () => ({ action: "accept", content } as ElicitResult);
          const error = await callError(ide, "interact", {
            runId: run.runId,
            actionId: run.pendingAction!.id,
          });
          assert.equal(error.code, "INVALID_REQUEST", JSON.stringify(content));
        }
        const questions = await startPick(ide);
        reply = () => ({ action: "accept", content: { destination: "wiki" } });
        const incomplete = await callError(ide, "interact", {
          runId: questions.runId,
          actionId: questions.pendingAction!.id,
        });
        assert.equal(incomplete.code, "INVALID_REQUEST");
        const still = (await call<{ run: RunView }>(ide, "get_run", { runId: run.runId })).run;
        assert.equal(still.pendingAction?.id, run.pendingAction!.id);
        const answered = await call<{ run: RunView }>(ide, "answer_ask", {
          runId: run.runId,
          actionId: run.pendingAction!.id,
          answer: { isConfirmed: true },
        });
        assert.equal(answered.run.status, "completed");
      });

      await t.step(
        "without form capability, or on an internal endpoint, interact is unavailable",
        async () => {
          const run = await startPick(ide);
          for (const client of [plain, internal]) {
            const result = await interact(client, run);
            assert.equal(result.interaction, "unavailable");
            assert.equal(result.action?.id, run.pendingAction!.id);
            assert.deepEqual(result.action?.request, run.pendingAction!.request);
            assert.equal(result.run.pendingAction?.id, run.pendingAction!.id);
          }
        },
      );

      await t.step("stale actions conflict and unknown Runs are not found", async () => {
        const run = await startPick(ide);
        reply = () => ({ action: "accept", content: { destination: "wiki", format: "pdf", owner: "Ada" } });
        const answered = await interact(ide, run);
        assert.equal(answered.interaction, "answered");
        shown = undefined;
        const stale = await callError(ide, "interact", { runId: run.runId, actionId: run.pendingAction!.id });
        assert.equal(stale.code, "CONFLICT");
        assert.equal(shown, undefined, "a stale action shows the person no form");
        const after = (await call<{ run: RunView }>(ide, "get_run", { runId: run.runId })).run;
        assert.equal(
          after.pendingAction?.id,
          answered.run.pendingAction?.id,
          "the stale call changed nothing",
        );
        assert.equal((await timeline(after)).filter((event) => event.type === "action_answered").length, 1);
        const unknown = await callError(ide, "interact", { runId: "run_missing", actionId: "act_missing" });
        assert.equal(unknown.code, "NOT_FOUND");
      });
    } finally {
      await closeClient(ide);
      await closeClient(plain);
      await closeClient(internal);
    }
  });
});
