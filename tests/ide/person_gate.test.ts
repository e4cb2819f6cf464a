/**
 * Only a person confirms, end to end against a real `weft serve`: an agent holding only the `/mcp` token (an
 * MCP SDK client without forms) works a `deliver` Run of four tasks but can neither confirm a task nor decide
 * retry, skip or stop; the same Run is then answered by the person through the IDE's form (an elicitation the
 * test answers as the person would), through `weft attach` in a terminal and through Studio in Chromium. The
 * decision works from each (the terminal and Studio send the option's label, the form its id), every task
 * says how its answer came, and `weft tasks` and `weft run` say it in words.
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import type { ElicitResult } from "../../src/mcp/sdk.ts";
import type { Client } from "../support/sdk_test_client.ts";
import { task } from "../support/deliver.ts";
import { confirmedPlanOverMcp, DELIVER_PROJECT, implementOverMcp } from "../support/deliver_mcp.ts";
import { plan } from "../support/intent_agent.ts";
import { call, callError, closeClient, mcpClient, runWeft, withServedProject } from "../support/service.ts";
import { waitForRun } from "../model/support.ts";
import { Terminal } from "../cli/support.ts";
import { browserSteps, newPerson, openStudio, screenshot, shown, withBrowser } from "../studio/support.ts";
import { formClient, type FormRequest, type Interaction } from "./support.ts";

const FOUR_TASKS = { ...plan(), tasks: [task("T1"), task("T2"), task("T3"), task("T4")] };

/** What the agent tries with only its token: confirm or decide for the person. Each is refused, nothing moves. */
async function agentCannotAnswer(ide: Client, run: RunView, answer: unknown): Promise<void> {
  const args = { runId: run.runId, actionId: run.pendingAction!.id, answer };
  const refused = await callError(ide, "answer_ask", args);
  assert.equal(refused.code, "NOT_ALLOWED");
  assert.equal(refused.retryable, false);
  assert.match(refused.message, new RegExp(`weft attach ${run.runId}`));
  assert.match(refused.message, /Studio/);
  // Without forms, interact hands the agent words to pass on, not a way to answer.
  const offered = await call<Interaction & { message?: string }>(ide, "interact", {
    runId: run.runId,
    actionId: run.pendingAction!.id,
  });
  assert.equal(offered.interaction, "unavailable");
  assert.match(offered.message ?? "", new RegExp(`weft attach ${run.runId}`));
  assert.match(offered.message ?? "", /weft studio/);
  const after = (await call<{ run: RunView }>(ide, "get_run", { runId: run.runId })).run;
  assert.equal(after.status, "waiting");
  assert.equal(after.pendingAction?.id, run.pendingAction!.id, "the action still waits for the person");
  assert.equal(after.list?.items.find((item) => item.id === after.list?.current)?.status, "running");
}

/** Lets the agent fail the current task's verify three times: the Run then asks the person what to do. */
async function failThrice(ide: Client, run: RunView, dir: string, file: string): Promise<RunView> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    run = await implementOverMcp(ide, run, dir, file, `export const x = BROKEN; // ${attempt}\n`);
  }
  assert.equal(run.pendingAction?.kind, "user_ask_questions", "after three failures the person decides");
  return run;
}

Deno.test({
  name: "person's gate: the /mcp token alone confirms nothing; the IDE's form, weft attach and Studio do",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await withServedProject(DELIVER_PROJECT, (served) =>
      withBrowser(async (browser) => {
        const dir = served.projectDir;
        const step = browserSteps(t);
        const ide = await mcpClient(served, "/mcp");
        const person = await mcpClient(served, "/internal/mcp");
        // The same IDE, showing its native form to the person; `reply` is what the person picks.
        let reply: (form: FormRequest) => ElicitResult = () => ({ action: "cancel" });
        const form = await formClient(served, "/mcp", (shownForm) => reply(shownForm));
        const browserPerson = await newPerson(browser);
        let terminal: Terminal | undefined;
        try {
          const intent = await confirmedPlanOverMcp({ ide, person }, FOUR_TASKS);
          let run =
            (await call<{ run: RunView }>(ide, "flow", { flowName: "deliver", intent: intent.runId })).run;
          const runId = run.runId;

          await step(
            "T1: the agent can neither decide nor confirm; the person does both in the IDE's form",
            async () => {
              run = await failThrice(ide, run, dir, "src/t1.ts");
              await agentCannotAnswer(ide, run, [{
                questionId: "decision",
                isSkipped: false,
                answer: "skip",
              }]);
              reply = (shownForm) => {
                assert.deepEqual(
                  (shownForm.requestedSchema.properties.decision.oneOf ?? []).map((choice) => choice.const),
                  ["retry", "skip", "stop"],
                );
                return { action: "accept", content: { decision: "retry" } };
              };
              const retried = await call<Interaction>(form, "interact", {
                runId,
                actionId: run.pendingAction!.id,
              });
              assert.equal(retried.interaction, "answered");
              assert.equal(
                retried.run.pendingAgentCall?.agentId,
                "implementer",
                "retry goes back to the agent",
              );
              run = await implementOverMcp(ide, retried.run, dir, "src/t1.ts", "export const t1 = 1;\n");
              assert.equal(run.pendingAction?.kind, "user_ask_confirmation");
              assert.equal(run.pendingAction?.answerFrom, "person");
              await agentCannotAnswer(ide, run, { isConfirmed: true });
              reply = () => ({ action: "accept", content: { decision: "confirm" } });
              const confirmed = await call<Interaction>(form, "interact", {
                runId,
                actionId: run.pendingAction!.id,
              });
              assert.equal(confirmed.interaction, "answered");
              run = confirmed.run;
              assert.equal(run.list?.items.find((item) => item.id === "T1")?.status, "done");
              assert.deepEqual(run.list?.items.find((item) => item.id === "T1")?.decidedBy, {
                channel: "form",
              });
            },
          );

          await step(
            "T2 skipped and T3 confirmed in weft attach: the label it sends routes as the option",
            async () => {
              run = await failThrice(ide, run, dir, "src/t2.ts");
              await agentCannotAnswer(ide, run, [{
                questionId: "decision",
                isSkipped: false,
                answer: "retry",
              }]);
              terminal = new Terminal(["attach", runId], { cwd: dir, env: { NO_COLOR: "1" } });
              let seen = await terminal.waitFor("2) Skip this task");
              seen = await terminal.waitFor("choose 1-3: ", seen);
              await terminal.type("2");
              run = await waitForRun(ide, runId, "on T3", (now) => now.list?.current === "T3");
              const t2 = run.list?.items.find((item) => item.id === "T2");
              assert.equal(t2?.status, "skipped", "Skip skips the task; the delivery goes on");
              assert.deepEqual(t2?.decidedBy, { channel: "terminal" });
              // The person drops the skipped task's broken work, so the next task's verify can pass.
              await Deno.remove(`${dir}/src/t2.ts`);

              run = await implementOverMcp(ide, run, dir, "src/t3.ts", "export const t3 = 3;\n");
              await agentCannotAnswer(ide, run, { isConfirmed: true });
              seen = await terminal.waitFor("confirm (y) or revise (r)? ", seen);
              await terminal.type("y");
              run = await waitForRun(ide, runId, "on T4", (now) => now.list?.current === "T4");
              assert.deepEqual(run.list?.items.find((item) => item.id === "T3")?.decidedBy, {
                channel: "terminal",
              });
              await terminal.interrupt();
              assert.equal(await terminal.exit(), 0);
              terminal = undefined;
            },
          );

          await step("T4 retried and confirmed in Studio", async () => {
            run = await failThrice(ide, run, dir, "src/t4.ts");
            await agentCannotAnswer(ide, run, [{ questionId: "decision", isSkipped: false, answer: "stop" }]);
            const { page } = await openStudio(browserPerson, served);
            await page.evaluate((hash) => {
              (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
            }, `#/runs/${runId}`);
            const decide = await shown(
              page.getByRole("form", { name: "Answer: tasks/decide" }),
              "the decision",
            );
            await decide.getByRole("radio", { name: /^Retry/ }).check();
            await decide.getByRole("button", { name: "Answer" }).click();
            run = await waitForRun(
              ide,
              runId,
              "back at the agent",
              (now) => now.pendingAgentCall !== undefined,
            );
            assert.equal(run.list?.items.find((item) => item.id === "T4")?.attempts, 4, "Retry retries");

            run = await implementOverMcp(ide, run, dir, "src/t4.ts", "export const t4 = 4;\n");
            await agentCannotAnswer(ide, run, { isConfirmed: true });
            const review = await shown(
              page.getByRole("form", { name: "Answer: tasks/review" }),
              "the review",
            );
            await review.getByRole("button", { name: "Confirm" }).click();
            await shown(page.getByText("Status: completed"), "the completed Run");
            const board = page.getByRole("region", { name: "Tasks" });
            for (
              const [id, how] of [["T1", "Confirmed in the IDE's form."], ["T4", "Confirmed in Studio."]]
            ) {
              const card = board.locator(`details.task[data-task="${id}"]`);
              await card.locator(":scope > summary").click();
              await shown(card.getByText(how), `how ${id}'s review came`);
            }
            const timeline = await shown(page.getByRole("list", { name: "Timeline" }), "the timeline");
            const events = (await timeline.locator(".answered-how").allTextContents()).join("\n");
            assert.match(events, /Confirmed in Studio/);
            assert.match(events, /Answered in the terminal/);
            await screenshot(page, "person-gate-studio");
          });

          await step("every task says how its answer came, in the views of the Run", async () => {
            run = (await call<{ run: RunView }>(person, "get_run", { runId })).run;
            assert.equal(run.status, "completed");
            assert.deepEqual(
              run.list?.items.map((item) => [item.id, item.status, item.decidedBy?.channel]),
              [["T1", "done", "form"], ["T2", "skipped", "terminal"], ["T3", "done", "terminal"], [
                "T4",
                "done",
                "studio",
              ]],
            );
            const tasks = await runWeft(["tasks", runId], { cwd: dir, env: { NO_COLOR: "1" } });
            assert.equal(tasks.code, 0, tasks.stderr);
            assert.match(tasks.stdout, /T1 .*done · in the IDE's form/);
            assert.match(tasks.stdout, /T2 .*skipped · in the terminal/);
            assert.match(tasks.stdout, /T4 .*done · in Studio/);
            const shownRun = await runWeft(["run", runId], {
              cwd: dir,
              env: { NO_COLOR: "1", COLUMNS: "200" },
            });
            assert.equal(shownRun.code, 0, shownRun.stderr);
            assert.match(shownRun.stdout, /Confirmed in Studio/);
            assert.match(shownRun.stdout, /Answered in the terminal/);
            // Every decision routed as its option: no label fell through to "stop".
            const { timeline } = await call<{ timeline: Record<string, unknown>[] }>(person, "get_run", {
              runId,
              timeline: true,
            });
            const stopped = timeline.filter((event) =>
              event.type === "check_evaluated" && event.stepName === "skip_chosen" &&
              event.outcome === "invalid"
            );
            assert.deepEqual(stopped, []);
          });
        } finally {
          await terminal?.kill();
          for (const client of [ide, person, form]) await closeClient(client);
          await browserPerson.close();
        }
      }));
  },
});
