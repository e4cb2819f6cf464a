/**
 * What Studio tells a person besides the form, in a real browser (Chromium) against a served project whose
 * workflow asks, checks the answer, confirms and commits: each revision's own commit time, why a question
 * comes back, a Cancel that asks first, the labels of choices, and a stopped service explained with what to
 * run. Every element is found by the accessible names Studio's contract fixes.
 */

import assert from "node:assert/strict";
import type { Locator, Page } from "./support.ts";
import type { Client } from "../support/sdk_test_client.ts";
import type { ArtifactView, RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient, type ServedProject, withServedProject } from "../support/service.ts";
import {
  humanFlow,
  MARKDOWN_BRIEF,
  REVIEW_ANSWER,
  reviewManifest,
  workflowFiles,
} from "../support/workflows.ts";
import { browserSteps, newPerson, openStudio, screenshot, shown, withBrowser } from "./support.ts";

/** The form of the review workflow's questions, by the name the contract gives it. */
const QUESTIONS_FORM = "Answer: collect/ask";

/** The brief: strong text, a list and a link that must stay inert. */
const BRIEF_TEXT = "Adds **CSV export** to reports.\n\n- first point\n- second point\n\n" +
  "[Open me](javascript:globalThis.injected=1) or [the docs](https://example.com/docs).";

/** A workflow whose one question offers choices and the person's own answer besides. */
const PICK = humanFlow({
  name: "pick",
  title: "Pick",
  description: "Asks for a flavour, where the person may write their own.",
  questions: [{
    id: "flavour",
    question: "Which flavour should the release party have?",
    options: [{ id: "van", label: "Vanilla" }],
    allowOther: true,
  }],
  check: null,
});

/** Runs `fn` with an MCP client of the terminal's endpoint, closed whatever happens. */
async function withClient<T>(served: ServedProject, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = await mcpClient(served, "/internal/mcp");
  try {
    return await fn(client);
  } finally {
    await closeClient(client);
  }
}

/** Starts a Run of `flowName` (the review workflow by default) from the terminal's endpoint. */
function startRun(served: ServedProject, intent: string, flowName = "review"): Promise<string> {
  return withClient(
    served,
    async (client) => (await call<{ run: RunView }>(client, "flow", { flowName, intent })).run.runId,
  );
}

/** Answers Run `runId`'s pending action from the terminal's endpoint, as another client would. */
function answerElsewhere(served: ServedProject, runId: string, answer: unknown): Promise<void> {
  return withClient(served, async (client) => {
    const { run } = await call<{ run: RunView }>(client, "get_run", { runId });
    await call(client, "answer_ask", { runId, actionId: run.pendingAction!.id, answer });
  });
}

/** Run `runId` as the service has it. */
function runOf(served: ServedProject, runId: string): Promise<RunView> {
  return withClient(
    served,
    async (client) => (await call<{ run: RunView }>(client, "get_run", { runId })).run,
  );
}

/** Answers the review questions in `form`: the title, the colour by its label, and skips the notes. */
async function answerReview(form: Locator, title: string, colour: string): Promise<void> {
  await form.getByLabel("Title?").fill(title);
  await form.getByRole("group", { name: "Colour?" }).getByRole("radio", { name: colour }).check();
  await form.getByRole("button", { name: "Skip" }).click();
  await form.getByRole("button", { name: "Answer" }).click();
}

/** Goes to a view by its address (the hash only: the page is never reloaded). */
async function go(page: Page, hash: string): Promise<void> {
  await page.evaluate((hash) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
  }, hash);
}

Deno.test({
  name: "studio guidance: commit times, why a question is back, Cancel asks, labels, a stopped service",
  // One browser and one service for the whole file; Playwright's pipes outlive single steps.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: (t) =>
    withServedProject(
      {
        files: {
          ...workflowFiles(reviewManifest()),
          ...workflowFiles(PICK),
          ...workflowFiles(MARKDOWN_BRIEF),
        },
      },
      (served) =>
        withBrowser(async (browser) => {
          const person = await newPerson(browser);
          const step = browserSteps(t);
          try {
            const { page } = await openStudio(person, served);

            await step(
              "each revision shows when it was committed, not when the Artifact was first",
              async () => {
                for (const title of ["First title", "Second title"]) {
                  const runId = await startRun(served, title);
                  await answerElsewhere(served, runId, [
                    { questionId: "title", isSkipped: false, answer: title },
                    ...REVIEW_ANSWER.slice(1),
                  ]);
                  await answerElsewhere(served, runId, { isConfirmed: true });
                }
                const revisions = await withClient(served, async (client) => {
                  const get = async (revision: number) =>
                    (await call<{ artifact: ArtifactView }>(client, "get_artifact", {
                      flowName: "review",
                      stageName: "collect",
                      revision,
                    })).artifact;
                  return [await get(1), await get(2)];
                });
                assert.notEqual(revisions[0].updatedAt, revisions[1].updatedAt, "two commits, two times");
                await go(page, `#/artifacts/review/collect/${revisions[1].artifactId}`);
                const table = await shown(page.getByRole("table", { name: "Revisions" }), "the revisions");
                for (const revision of revisions) {
                  const row = table.getByRole("row").filter({
                    has: page.getByRole("link", {
                      name: `Run of revision ${revision.revision}`,
                      exact: true,
                    }),
                  });
                  const time = await shown(row.getByRole("time"), `revision ${revision.revision}'s time`);
                  assert.equal(
                    await time.getAttribute("datetime"),
                    revision.updatedAt,
                    `revision ${revision.revision} shows its own commit time`,
                  );
                }
                await screenshot(page, "artifact-revisions");
              },
            );

            await step(
              "a question back after a failed check or a revision says why, above the form",
              async () => {
                const runId = await startRun(served, "Asked again");
                await go(page, `#/runs/${runId}`);
                const form = await shown(
                  page.getByRole("form", { name: QUESTIONS_FORM }),
                  "the questions form",
                );
                assert.equal(await page.getByRole("region", { name: "This comes back because" }).count(), 0);
                await answerReview(form, "No", "Red");
                const why = await shown(
                  page.getByRole("region", { name: "This comes back because" }),
                  "why the questions are back",
                );
                await shown(why.getByText("The check says: title too short"), "the check's message");
                await screenshot(page, "run-asked-again");

                await answerElsewhere(served, runId, REVIEW_ANSWER);
                await answerElsewhere(served, runId, { isConfirmed: false, feedback: "A longer title" });
                await shown(why.getByText("Revision asked for: A longer title"), "the revision's feedback");
              },
            );

            await step(
              "a Run started without a model of weft's says what to tell the IDE's agent",
              async () => {
                const runId = await startRun(served, "An app", "intent");
                await go(page, `#/runs/${runId}`);
                await shown(
                  page.getByText(`Work on weft Run ${runId} with weft's MCP tools: claim its agent call`),
                  "the sentence for the IDE's agent",
                );
                await screenshot(page, "run-tell-the-agent");
                const ide = await mcpClient(served, "/mcp");
                try {
                  const { run } = await call<{ run: RunView }>(ide, "get_run", { runId });
                  await call(ide, "claim_agent_call", {
                    runId,
                    callId: run.pendingAgentCall!.id,
                    claimId: "ide",
                  });
                } finally {
                  await closeClient(ide);
                }
                // Claimed, the call is the agent's: nobody needs telling any more.
                await shown(page.getByText("(specifier, claimed)"), "the claimed call");
                assert.equal(await page.getByText("tell your IDE's agent").count(), 0);
              },
            );

            await step("Cancel Run asks first: No and Escape keep the Run, Yes cancels it", async () => {
              const runId = await startRun(served, "Cancel me carefully");
              await go(page, `#/runs/${runId}`);
              await shown(page.getByRole("form", { name: QUESTIONS_FORM }), "the questions form");
              const cancel = page.getByRole("button", { name: "Cancel Run" });
              const ask = page.getByRole("dialog", { name: "Cancel this Run?" });

              await cancel.click();
              await shown(ask, "the question before cancelling");
              await screenshot(page, "run-cancel-ask");
              await ask.getByRole("button", { name: "No, keep it" }).click();
              await ask.waitFor({ state: "hidden" });
              await cancel.click();
              await shown(ask, "the question again");
              await page.keyboard.press("Escape");
              await ask.waitFor({ state: "hidden" });
              assert.equal((await runOf(served, runId)).status, "waiting", "No and Escape kept the Run");

              await cancel.click();
              await ask.getByRole("button", { name: "Yes, cancel it" }).click();
              await shown(page.getByText("Status: cancelled"), "the cancelled status");
              assert.equal((await runOf(served, runId)).status, "cancelled");
            });

            await step(
              "a choice reads as its label, the own answer has its own name, the status shows no ring",
              async () => {
                const pick = await startRun(served, "Own answer", "pick");
                await go(page, `#/runs/${pick}`);
                const question = await shown(
                  page.getByRole("form", { name: QUESTIONS_FORM }).getByRole("group", {
                    name: "Which flavour should the release party have?",
                  }),
                  "the question with an own answer",
                );
                await question.getByRole("radio", { name: "Other" }).check();
                await shown(
                  question.getByLabel("Your own answer", { exact: true }),
                  "the own answer's field",
                );

                const runId = await startRun(served, "Labels");
                await go(page, `#/runs/${runId}`);
                const form = await shown(
                  page.getByRole("form", { name: QUESTIONS_FORM }),
                  "the questions form",
                );
                await answerReview(form, "A fine title", "Blue");
                const confirm = await shown(
                  page.getByRole("form", { name: "Answer: collect/confirm" }),
                  "the confirm",
                );
                assert.match(await confirm.textContent() ?? "", /Color: Blue/, "the choice as its label");
                await confirm.getByRole("button", { name: "Confirm" }).click();
                const status = await shown(page.getByText("Status: completed"), "the completed status");
                const focus = await status.evaluate((element) => {
                  const style = (globalThis as unknown as {
                    getComputedStyle(element: unknown): { outlineStyle: string };
                  }).getComputedStyle(element);
                  const active = (element.ownerDocument as { activeElement: unknown }).activeElement;
                  return { focused: active === element, outline: style.outlineStyle };
                });
                assert.deepEqual(
                  focus,
                  { focused: true, outline: "none" },
                  "the status has the focus, no ring",
                );
              },
            );

            await step(
              "Markdown fields render in the confirmation and the Artifact: bold, a list, an inert link",
              async () => {
                const runId = await startRun(served, "Markdown brief", "brief");
                await answerElsewhere(served, runId, [{
                  questionId: "brief",
                  isSkipped: false,
                  answer: BRIEF_TEXT,
                }]);
                await go(page, `#/runs/${runId}`);
                const confirm = await shown(
                  page.getByRole("form", { name: "Answer: collect/confirm" }),
                  "the confirmation",
                );
                const rendered = async (where: Locator, what: string) => {
                  await shown(
                    where.getByRole("strong").filter({ hasText: "CSV export" }),
                    `${what}'s bold text`,
                  );
                  const items = where.getByRole("list").filter({ hasText: "first point" }).last()
                    .getByRole("listitem");
                  assert.deepEqual(
                    await items.allTextContents(),
                    ["first point", "second point"],
                    `${what}'s list`,
                  );
                  await shown(where.getByText("Open me"), `${what}'s inert link text`);
                  assert.equal(
                    await where.getByRole("link", { name: "Open me" }).count(),
                    0,
                    "no link to javascript:",
                  );
                  const docs = where.getByRole("link", { name: "the docs" });
                  assert.equal(await docs.getAttribute("href"), "https://example.com/docs");
                  assert.equal(await docs.getAttribute("rel"), "noopener noreferrer");
                  assert.doesNotMatch(await where.textContent() ?? "", /\*\*/, `${what} shows no raw marks`);
                };
                await rendered(confirm, "the confirmation");
                await screenshot(page, "run-confirm-markdown");
                await confirm.getByRole("button", { name: "Confirm" }).click();
                await shown(page.getByText("Status: completed"), "the completed status");

                const artifact = await withClient(
                  served,
                  async (client) =>
                    (await call<{ artifact: ArtifactView }>(client, "get_artifact", {
                      flowName: "brief",
                      stageName: "collect",
                    })).artifact,
                );
                await go(page, `#/artifacts/brief/collect/${artifact.artifactId}`);
                const revision = await shown(
                  page.getByRole("region", { name: "Revision 1" }),
                  "the revision's data",
                );
                await rendered(revision, "the Artifact");
                assert.equal(
                  await page.evaluate(() => (globalThis as Record<string, unknown>).injected ?? null),
                  null,
                );
              },
            );
          } finally {
            await person.close();
          }
        }),
    ),
});
