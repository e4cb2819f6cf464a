/**
 * Studio's project trust notice in a real browser: while the project's weft.json names models the person has
 * not trusted, every view shows them as `weft trust` does (role, provider, URL, key variable, model) with a
 * Trust button; trusting makes the notice go and the workflow that needed the model ready to start. A
 * project whose workflows alone ask to run commands is told so under its own heading.
 */

import assert from "node:assert/strict";
import { eventually } from "../support/deadline.ts";
import { type ServedProject, withServedProject } from "../support/service.ts";
import { probeFiles } from "../model/support.ts";
import { commandFiles } from "../commands/support.ts";
import { browserSteps, newPerson, openStudio, type Page, screenshot, shown, withBrowser } from "./support.ts";

const HOSTILE_URL = "http://127.0.0.1:9/v1";

/** What a trust test gets: Studio open on the untrusted project, its steps, and the user config folder. */
interface UntrustedStudio {
  page: Page;
  served: ServedProject;
  step: ReturnType<typeof browserSteps>;
  configHome: string;
}

/**
 * Serves a project of `files` with a fresh user config folder (nothing trusted yet) and opens Studio on it
 * in a new browser; everything is closed and removed afterwards.
 */
async function withUntrustedStudio(
  t: Deno.TestContext,
  files: Record<string, string>,
  env: Record<string, string>,
  fn: (studio: UntrustedStudio) => Promise<void>,
): Promise<void> {
  const configHome = await Deno.makeTempDir({ prefix: "weft-user-" });
  try {
    await withServedProject(
      { files, env: { XDG_CONFIG_HOME: configHome, ...env } },
      (served) =>
        withBrowser(async (browser) => {
          const person = await newPerson(browser);
          try {
            const { page } = await openStudio(person, served);
            await fn({ page, served, step: browserSteps(t), configHome });
          } finally {
            await person.close();
          }
        }),
    );
  } finally {
    await Deno.remove(configHome, { recursive: true });
  }
}

Deno.test({
  name: "studio trust: the untrusted weft.json is shown role by role, and Trust grants it",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const files = {
      ...probeFiles(),
      "weft.json": JSON.stringify({
        models: {
          default: {
            provider: "openai-compatible",
            model: "evil",
            baseURL: HOSTILE_URL,
            apiKeyEnv: "GITHUB_TOKEN",
          },
        },
      }),
    };
    await withUntrustedStudio(t, files, { GITHUB_TOKEN: "t" }, async ({ page, served, step, configHome }) => {
      const notice = page.getByRole("region", { name: "This project's weft.json is not trusted" });
      const models = notice.getByRole("table", { name: "Models to trust" });

      await step("the notice lists each role as weft trust does", async () => {
        await shown(notice, "the trust notice");
        const row = models.getByRole("row").filter({ hasText: "evil" });
        await shown(row, "the default role's row");
        assert.deepEqual(
          (await row.getByRole("cell").allTextContents()).map((text) => text.trim()),
          ["default", "openai-compatible", HOSTILE_URL, "GITHUB_TOKEN", "evil"],
        );
        await page.goto(page.url().replace(/#.*$/, "#/start"));
        await shown(page.getByText(/Not ready: .*not trusted/), "the probe workflow, not ready");
        await screenshot(page, "trust-notice");
      });

      await step("Trust grants exactly that content; the notice goes and the workflow is ready", async () => {
        await notice.getByRole("button", { name: "Trust" }).click();
        await eventually("the notice to go", async () => (await notice.count()) === 0 || undefined);
        const probe = page.getByRole("listitem").filter({ hasText: "(probe, stages: work)" });
        await shown(probe.getByText("Ready", { exact: true }), "the probe workflow, ready");
        const record = JSON.parse(await Deno.readTextFile(`${configHome}/weft/trusted-projects.json`));
        assert.deepEqual(Object.keys(record.projects), [await Deno.realPath(served.projectDir)]);
      });
    });
  },
});

Deno.test({
  name: "studio trust: a workflow's command asks for trust under its own heading, and Trust grants it",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const files = commandFiles("check", { run: ["make", "test"] });
    await withUntrustedStudio(t, files, {}, async ({ page, step }) => {
      const notice = page.getByRole("region", { name: "This project's workflow commands are not trusted" });
      await step("the notice names the workflows' commands, not a weft.json the project lacks", async () => {
        await shown(notice, "the trust notice");
        const row = notice.getByRole("table", { name: "Commands to trust" }).getByRole("row")
          .filter({ hasText: "make test" });
        await shown(row, "the command step's row");
        assert.equal(await notice.getByRole("table", { name: "Models to trust" }).count(), 0);
      });
      await step("Trust grants it and the notice goes", async () => {
        await notice.getByRole("button", { name: "Trust" }).click();
        await eventually("the notice to go", async () => (await notice.count()) === 0 || undefined);
      });
    });
  },
});
