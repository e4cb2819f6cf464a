/**
 * Studio's page in a real browser (Chromium), against a served project with a workflow that asks, confirms and
 * commits: the Runs that wait for the person, a change made from the terminal shown without reload, answering
 * (choices, free text, a skip, Revise then Confirm) until the Run advances, cancelling, a keyboard-only
 * answer, an intent of HTML and script shown as text, starting a Run, the diff of an Artifact's two
 * revisions, filters and search kept in the address, an action answered elsewhere (before the person's answer,
 * or while it is on its way) explained with the new state, paging, and a page that reconnects by itself
 * after the service restarts, and signing out everywhere. Every element is found by the accessible names Studio's contract fixes. Screenshots of each main
 * view are written as test output.
 */

import assert from "node:assert/strict";
import type { Locator, Page } from "./support.ts";
import type { Client } from "../support/sdk_test_client.ts";
import type { RunView } from "../../src/engine/views.ts";
import { eventually } from "../support/deadline.ts";
import {
  call,
  closeClient,
  mcpClient,
  runWeft,
  serve,
  type ServedProject,
  withServedProject,
} from "../support/service.ts";
import { NOTES_ANSWER, NOTES_PROJECT } from "../cli/support.ts";
import {
  browserSteps,
  newPerson,
  openStudio,
  type PageGlobals,
  screenshot,
  shown,
  withBrowser,
} from "./support.ts";

/** The forms of the notes workflow's two actions, by the names the contract gives them. */
const QUESTIONS_FORM = "Answer: draft/ask";
const CONFIRM_FORM = "Answer: draft/confirm";

/** Waits until `locator`'s text is `expected` (exactly, trimmed). */
async function hasText(locator: Locator, expected: string | RegExp, what: string): Promise<void> {
  await eventually(`${what} to read ${expected}`, async () => {
    const text = (await locator.first().textContent().catch(() => null))?.trim();
    if (text === undefined || text === null) return undefined;
    return (typeof expected === "string" ? text === expected : expected.test(text)) || undefined;
  });
}

/** Goes to a view by its address (the hash only: the page is never reloaded). */
async function go(page: Page, hash: string): Promise<void> {
  await page.evaluate((hash) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
  }, hash);
}

/** Presses Tab until `target` has the focus (at most 60 times), as a keyboard-only person does. */
async function tabTo(page: Page, target: Locator, what: string): Promise<void> {
  for (let presses = 0; presses < 60; presses++) {
    if (
      await target.evaluate((element) =>
        element === (element.ownerDocument as { activeElement: unknown }).activeElement
      )
    ) {
      return;
    }
    await page.keyboard.press("Tab");
  }
  assert.fail(`Tab never reached ${what}`);
}

/** Runs `fn` with an MCP client of `path` (the terminal's endpoint by default), closed whatever happens. */
async function withClient<T>(
  served: ServedProject,
  fn: (client: Client) => Promise<T>,
  path = "/internal/mcp",
): Promise<T> {
  const client = await mcpClient(served, path);
  try {
    return await fn(client);
  } finally {
    await closeClient(client);
  }
}

/** The Run `runId` as the service has it, with its timeline. */
function runOf(served: ServedProject, runId: string) {
  return withClient(
    served,
    (client) =>
      call<{ run: RunView; timeline: { type: string; source?: string }[] }>(client, "get_run", {
        runId,
        timeline: true,
      }),
  );
}

/** Starts a Run of the notes workflow from the terminal's endpoint. */
function startRun(served: ServedProject, intent: string): Promise<string> {
  return withClient(
    served,
    async (client) => (await call<{ run: RunView }>(client, "flow", { flowName: "notes", intent })).run.runId,
  );
}

/** Answers Run `runId`'s pending action from the terminal's endpoint, as another client would. */
function answerElsewhere(served: ServedProject, runId: string, answer: unknown): Promise<void> {
  return withClient(served, async (client) => {
    const { run } = await call<{ run: RunView }>(client, "get_run", { runId });
    await call(client, "answer_ask", { runId, actionId: run.pendingAction!.id, answer });
  });
}

/** Answers the questions form: Users, `highlight`, and skips "Anything else?". */
async function answerQuestions(page: Page, highlight: string): Promise<void> {
  const form = await shown(page.getByRole("form", { name: QUESTIONS_FORM }), "the questions form");
  await form.getByRole("group", { name: "Who reads these notes?" }).getByRole("radio", { name: "Users" })
    .check();
  await form.getByLabel("What is the highlight?").fill(highlight);
  const skip = form.getByRole("button", { name: "Skip" });
  await skip.click();
  assert.equal(await skip.getAttribute("aria-pressed"), "true", "Skip is pressed");
  await form.getByRole("button", { name: "Answer" }).click();
}

Deno.test({
  name:
    "studio page: waiting Runs, live changes, answers, cancel, keyboard, inert intents, start, diffs, restart",
  // One browser and one service for the whole file; Playwright's pipes outlive single steps.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: (t) =>
    withServedProject({ files: NOTES_PROJECT }, (served) =>
      withBrowser(async (browser) => {
        const person = await newPerson(browser);
        const step = browserSteps(t);
        try {
          const first = await startRun(served, "Notes for 1.2");
          const second = await startRun(served, "Notes for 1.3");
          const { page } = await openStudio(person, served);
          const runs = page.getByRole("table", { name: "Runs" });

          await step("Studio opens on the Runs waiting for you, Live, with their count", async () => {
            await hasText(page.getByRole("status"), "Live", "the connection indicator");
            await shown(page.getByRole("heading", { name: "weft Studio" }), "the title");
            await eventually(
              "the address to name the waiting Runs",
              () => page.url().endsWith("#/runs?status=waiting") || undefined,
            );
            await shown(
              runs.getByRole("link", { name: "Notes for 1.2", exact: true }),
              "the first Run's row",
            );
            await shown(
              runs.getByRole("link", { name: "Notes for 1.3", exact: true }),
              "the second Run's row",
            );
            await shown(page.getByRole("link", { name: "Waiting for you (2)" }), "the waiting count");
            for (const name of ["Runs", "Start a Run", "Artifacts"]) {
              await shown(page.getByRole("link", { name, exact: true }), `the ${name} link`);
            }
            await shown(page.getByLabel("Status"), "the status filter");
            await shown(page.getByLabel("Search intents"), "the search box");
            await screenshot(page, "runs");
            await page.emulateMedia({ colorScheme: "dark" });
            await screenshot(page, "runs-dark");
            await page.emulateMedia({ colorScheme: "light" });
          });

          await step(
            "a Run started and cancelled from the terminal appears and leaves without reload",
            async () => {
              await page.evaluate(() => void ((globalThis as Record<string, unknown>).sameDocument = true));
              const flow = await runWeft(
                ["flow", "notes", "--intent", "Made in the terminal", "--no-interactive", "--json"],
                { cwd: served.projectDir },
              );
              assert.equal(flow.code, 0, flow.stderr);
              const runId = JSON.parse(flow.stdout).run.runId;
              await shown(runs.getByRole("link", { name: "Made in the terminal" }), "the terminal's Run");
              await shown(page.getByRole("link", { name: "Waiting for you (3)" }), "the new count");
              const cancel = await runWeft(["cancel", runId, "--json"], { cwd: served.projectDir });
              assert.equal(cancel.code, 0, cancel.stderr);
              await runs.getByRole("link", { name: "Made in the terminal" }).waitFor({ state: "detached" });
              await shown(page.getByRole("link", { name: "Waiting for you (2)" }), "the count again");
              assert.equal(
                await page.evaluate(() => (globalThis as Record<string, unknown>).sameDocument),
                true,
                "the page was not reloaded",
              );
            },
          );

          await step(
            "a Run waiting for the IDE's agent is listed as such and not counted as waiting for you",
            async () => {
              const runId = await withClient(
                served,
                async (ide) =>
                  (await call<{ run: RunView }>(ide, "flow", { flowName: "intent", intent: "Agent at work" }))
                    .run.runId,
                "/mcp",
              );
              const row = runs.getByRole("row").filter({
                has: page.getByRole("link", { name: "Agent at work" }),
              });
              await shown(row.getByText("for the agent"), "the Run waiting for the agent");
              // A fresh load counts once from the stored Runs, so a count that took the agent's Run in (3)
              // could not pass for the right one by showing late.
              await page.reload();
              await hasText(page.getByRole("status"), "Live", "the connection indicator after a reload");
              await shown(row.getByText("for the agent"), "the Run waiting for the agent, after the reload");
              await shown(
                page.getByRole("link", { name: "Waiting for you (2)" }),
                "the count of person waits",
              );
              const cancel = await runWeft(["cancel", runId, "--json"], { cwd: served.projectDir });
              assert.equal(cancel.code, 0, cancel.stderr);
              await runs.getByRole("link", { name: "Agent at work" }).waitFor({ state: "detached" });
            },
          );

          await step(
            "questions answered with a skip, Revise, then Confirm: the Run advances to completed",
            async () => {
              await runs.getByRole("link", { name: "Notes for 1.2", exact: true }).click();
              await shown(page.getByRole("heading", { level: 2, name: "Notes for 1.2" }), "the Run's intent");
              await shown(page.getByText("Status: waiting"), "its status");
              await shown(page.getByRole("list", { name: "Timeline" }), "its timeline");
              await screenshot(page, "run-questions");
              await answerQuestions(page, "Faster starts");

              const confirm = await shown(page.getByRole("form", { name: CONFIRM_FORM }), "the confirmation");
              const shownData = await confirm.textContent() ?? "";
              assert.match(shownData, /Faster starts/, "the confirmation shows the answers");
              assert.doesNotMatch(shownData, /[{}]|"questionId"/, "readably, not as raw JSON");
              await screenshot(page, "run-confirm");
              await confirm.getByLabel("Feedback").fill("Say who reads it first");
              await confirm.getByRole("button", { name: "Revise" }).click();

              await answerQuestions(page, "Faster starts, for users first");
              const again = await shown(
                page.getByRole("form", { name: CONFIRM_FORM }),
                "the second confirmation",
              );
              await shown(again.getByText("Faster starts, for users first"), "the revised answer");
              await again.getByRole("button", { name: "Confirm" }).click();
              await shown(page.getByText("Status: completed"), "the completed status");

              const { run, timeline } = await runOf(served, first);
              assert.equal(run.status, "completed");
              const answers = timeline.filter((event) => event.type === "action_answered");
              assert.equal(answers.length, 4, "two question forms and two confirmations");
              assert.deepEqual(new Set(answers.map((event) => event.source)), new Set(["studio"]));
            },
          );

          await step("Cancel Run ends the Run", async () => {
            await go(page, `#/runs/${second}`);
            await shown(page.getByRole("heading", { level: 2, name: "Notes for 1.3" }), "the Run's intent");
            await page.getByRole("button", { name: "Cancel Run" }).click();
            const ask = await shown(page.getByRole("dialog", { name: "Cancel this Run?" }), "the question");
            await ask.getByRole("button", { name: "Yes, cancel it" }).click();
            await shown(page.getByText("Status: cancelled"), "the cancelled status");
            await page.getByRole("button", { name: "Cancel Run" }).waitFor({ state: "detached" });
            assert.equal((await runOf(served, second)).run.status, "cancelled");
          });

          await step("a Run answered and confirmed with the keyboard only", async () => {
            const runId = await startRun(served, "Keyboard only");
            await go(page, `#/runs/${runId}`);
            const form = await shown(page.getByRole("form", { name: QUESTIONS_FORM }), "the questions form");
            await page.locator("body").focus();
            const users = form.getByRole("radio", { name: "Users" });
            await tabTo(page, users, "the first choice");
            await page.keyboard.press("Space");
            assert.ok(await users.isChecked(), "Space chose Users");
            await tabTo(page, form.getByLabel("What is the highlight?"), "the free answer");
            await page.keyboard.type("Typed, not clicked");
            const skip = form.getByRole("button", { name: "Skip" });
            await tabTo(page, skip, "Skip");
            await page.keyboard.press("Enter");
            assert.equal(await skip.getAttribute("aria-pressed"), "true");
            const answer = form.getByRole("button", { name: "Answer" });
            await tabTo(page, answer, "Answer");
            const outline = await answer.evaluate((element) => {
              const style = (globalThis as unknown as {
                getComputedStyle(element: unknown): { outlineStyle: string; outlineWidth: string };
              }).getComputedStyle(element);
              return `${style.outlineStyle} ${style.outlineWidth}`;
            });
            assert.doesNotMatch(outline, /^none|\s0px$/, `the focused button shows its focus (${outline})`);
            await page.keyboard.press("Enter");
            const confirm = await shown(page.getByRole("form", { name: CONFIRM_FORM }), "the confirmation");
            await tabTo(page, confirm.getByRole("button", { name: "Confirm" }), "Confirm");
            await page.keyboard.press("Enter");
            await shown(page.getByText("Status: completed"), "the completed status");
          });

          await step("an intent of HTML and script is shown as text and runs nothing", async () => {
            const intent =
              `<img src="x" onerror="globalThis.injected=1"><script>globalThis.injected=2</script>` +
              `<b>bold</b> & "quoted"`;
            const runId = await startRun(served, intent);
            await go(page, "#/runs?status=waiting");
            await shown(
              runs.getByRole("link", { name: intent, exact: true }),
              "the intent as the row's text",
            );
            await go(page, `#/runs/${runId}`);
            const heading = await shown(
              page.getByRole("heading", { level: 2, name: intent, exact: true }),
              "the heading",
            );
            assert.equal(await heading.textContent(), intent);
            const injected = await page.evaluate(() => {
              const { document } = globalThis as unknown as PageGlobals & {
                document: { querySelectorAll(selector: string): { length: number } };
              };
              return {
                ran: (globalThis as Record<string, unknown>).injected ?? null,
                elements: document.querySelectorAll("main img, main script, main b, h2 *").length,
              };
            });
            assert.deepEqual(injected, { ran: null, elements: 0 });
          });

          await step("Start a Run: the ready workflow and an intent open the new Run", async () => {
            await page.getByRole("link", { name: "Start a Run", exact: true }).click();
            const workflow = await shown(page.getByLabel("Workflow"), "the workflow select");
            await workflow.selectOption("notes");
            await page.getByLabel("Intent").fill("Started in Studio");
            await screenshot(page, "start");
            await page.getByRole("button", { name: "Start Run" }).click();
            await shown(page.getByRole("heading", { level: 2, name: "Started in Studio" }), "the new Run");
            const runId = /#\/runs\/([^/?]+)$/.exec(page.url())?.[1] ??
              assert.fail(`not a Run's address: ${page.url()}`);
            const { run } = await runOf(served, runId);
            assert.equal(run.execution.source, "studio");
            assert.equal(run.status, "waiting");
          });

          await step("an Artifact's revisions 1 and 2 compared: the diff marks what changed", async () => {
            await page.getByRole("link", { name: "Artifacts", exact: true }).click();
            await shown(page.getByRole("heading", { level: 2, name: "Artifacts" }), "the Artifacts view");
            await screenshot(page, "artifacts");
            await page.getByRole("link", { name: "draft", exact: true }).click();
            await page.getByLabel("From revision").selectOption("1");
            await page.getByLabel("To revision").selectOption("2");
            await eventually(
              "the address to keep the compared revisions",
              () => /from=1&to=2/.test(page.url()) || undefined,
            );
            const diff = await shown(page.getByRole("region", { name: "Diff" }), "the diff");
            await shown(
              diff.locator("del", { hasText: "Faster starts, for users first" }),
              "revision 1's answer",
            );
            await shown(diff.locator("ins", { hasText: "Typed, not clicked" }), "revision 2's answer");
            await screenshot(page, "artifact-diff");
          });

          await step("the Runs filters and search live in the address", async () => {
            await page.getByRole("link", { name: "Runs", exact: true }).click();
            await page.getByLabel("Status").selectOption("completed");
            await eventually(
              "the address to hold the status",
              () => /status=completed/.test(page.url()) || undefined,
            );
            await shown(runs.getByRole("link", { name: "Notes for 1.2", exact: true }), "a completed Run");
            await runs.getByRole("link", { name: "Started in Studio" }).waitFor({ state: "detached" });
            await page.getByLabel("Search intents").fill("keyboard");
            await eventually(
              "the address to hold the search",
              () => /q=keyboard/.test(page.url()) || undefined,
            );
            await runs.getByRole("link", { name: "Notes for 1.2", exact: true }).waitFor({
              state: "detached",
            });
            await shown(
              runs.getByRole("link", { name: "Keyboard only", exact: true }),
              "the Run searched for",
            );
            assert.equal(await runs.getByRole("link").count(), 1);
          });

          await step(
            "an action answered elsewhere, before or during the person's answer, is explained",
            async () => {
              const runId = await startRun(served, "Answered elsewhere");
              await go(page, `#/runs/${runId}`);
              await shown(page.getByRole("form", { name: QUESTIONS_FORM }), "the questions form");
              await answerElsewhere(served, runId, NOTES_ANSWER);
              await shown(
                page.getByRole("alert").filter({ hasText: /changed elsewhere/ }),
                "the explanation",
              );
              const confirm = await shown(page.getByRole("form", { name: CONFIRM_FORM }), "the new state");
              await screenshot(page, "run-conflict");

              // The person's Confirm leaves the page, is held while another client confirms, then goes on.
              const endpoint = `http://127.0.0.1:${served.port}/internal/mcp/studio`;
              let held = false;
              await page.route(endpoint, async (route) => {
                if (
                  !held && route.request().method() === "POST" &&
                  route.request().postData()?.includes("answer_ask")
                ) {
                  held = true;
                  await answerElsewhere(served, runId, { isConfirmed: true });
                }
                await route.continue();
              });
              try {
                await confirm.getByRole("button", { name: "Confirm" }).click();
                await shown(page.getByText("Status: completed"), "the new state");
                await shown(page.getByRole("alert"), "the explanation of the answer not taken");
                assert.ok(held, "the page's answer was held and sent after the other one");
              } finally {
                await page.unroute(endpoint);
              }
              const { timeline } = await runOf(served, runId);
              const answers = timeline.filter((event) => event.type === "action_answered");
              assert.deepEqual(
                answers.map((event) => event.source),
                ["cli", "cli"],
                "only the other client's answers count",
              );
            },
          );

          await step("Runs page by page: Older and Newer, the page in the address", async () => {
            await withClient(served, async (client) => {
              for (let i = 0; i < 50; i++) {
                await call(client, "flow", { flowName: "notes", intent: `Paged ${i}` });
              }
            });
            await go(page, "#/runs?status=waiting");
            await shown(runs.getByRole("link", { name: "Paged 49", exact: true }), "the newest Run");
            await eventually(
              "a full first page",
              async () => (await runs.getByRole("link").count()) === 50 || undefined,
            );
            await page.getByRole("button", { name: "Older" }).click();
            await eventually("the address to hold page 2", () => /page=2/.test(page.url()) || undefined);
            // 52 Runs wait: the 50 just made fill page 1, the two made earlier are on page 2.
            await shown(
              runs.getByRole("link", { name: "Started in Studio", exact: true }),
              "an older Run on page 2",
            );
            assert.equal(await runs.getByRole("link", { name: "Paged 49", exact: true }).count(), 0);
            assert.ok(
              await page.getByRole("button", { name: "Older" }).isDisabled(),
              "no page after the last",
            );
            await page.getByRole("button", { name: "Newer" }).click();
            await shown(runs.getByRole("link", { name: "Paged 49", exact: true }), "the first page again");
          });

          await step(
            "after the service restarts, the page reconnects by itself and is live again",
            async () => {
              await served.stop();
              await hasText(
                page.getByRole("status"),
                /^(Reconnecting…|Offline)$/,
                "the connection indicator",
              );
              await hasText(
                page.getByRole("alert").filter({ hasText: "not running" }),
                "The weft service for this project is not running. Start it with weft start (or weft studio) " +
                  "in the project's folder, and this page reconnects by itself.",
                "what is wrong and what to run",
              );
              await screenshot(page, "service-stopped");
              const again = await serve(served.projectDir, { port: "previous" });
              try {
                assert.equal(again.port, served.port, "the service came back on its port");
                await hasText(page.getByRole("status"), "Live", "the connection indicator");
                await page.getByRole("alert").filter({ hasText: "not running" }).waitFor({
                  state: "detached",
                });
                await go(page, "#/runs?status=waiting");
                await startRun(again, "After the restart");
                await shown(
                  runs.getByRole("link", { name: "After the restart" }),
                  "a Run made after the restart",
                );
              } finally {
                await again.stop();
              }
            },
          );

          await step("Sign out everywhere ends this tab's session and another browser's", async () => {
            const again = await serve(served.projectDir, { port: "previous" });
            const other = await newPerson(browser);
            try {
              await hasText(page.getByRole("status"), "Live", "the connection indicator");
              const { page: elsewhere } = await openStudio(other, again);
              await hasText(elsewhere.getByRole("status"), "Live", "the other browser's indicator");
              await page.getByRole("button", { name: "Sign out everywhere" }).click();
              for (const [tab, what] of [[page, "this tab"], [elsewhere, "the other browser"]] as const) {
                await shown(
                  tab.getByText("This Studio session has ended"),
                  `${what} saying its session ended`,
                );
                await hasText(tab.getByRole("status"), "Offline", `${what}'s indicator`);
              }
              assert.equal(await page.getByRole("button", { name: "Sign out everywhere" }).count(), 0);
              assert.equal((await elsewhere.reload())?.status(), 401, "a reload opens nothing");
            } finally {
              await other.close();
              await again.stop();
            }
          });
        } finally {
          await person.close();
        }
      })),
});
