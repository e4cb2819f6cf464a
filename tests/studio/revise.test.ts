/**
 * Bringing an edit back from Studio, in Chromium against a served project whose service model is scripted:
 * an Artifact whose published file a person edited offers "Revise from this file"; the revision Run asks
 * for confirmation with the data's field diff and, beside it, the Markdown as edited and as it will be
 * published, line by line; once confirmed, the next revision is published over the edit.
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { answer } from "../agent/support.ts";
import { eventually } from "../support/deadline.ts";
import { call, closeClient, mcpClient } from "../support/service.ts";
import { publishedNotes, workflowFiles } from "../support/workflows.ts";
import { conversationText, scriptedServer, turnOf } from "../model/scripted_server.ts";
import { servedWithModel } from "../model/support.ts";
import { browserSteps, newPerson, openStudio, screenshot, shown, withBrowser } from "./support.ts";

const EDITED_TITLE = "Second, as a person wrote it";
const NOTE = "A note only the file has.";

Deno.test({
  name: "studio: Revise from this file, the field and Markdown diffs, and the confirmed revision published",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const model = scriptedServer("openai", (request) => {
      if (turnOf(request) === 0) return { calls: [{ name: "run_context", input: {} }] };
      const title = conversationText(request).includes(EDITED_TITLE) ? EDITED_TITLE : "no edit seen";
      const data = { answers: [{ questionId: "title", isSkipped: false, answer: title }] };
      return { calls: [{ name: "complete_agent_call", input: { outcome: "revised", data } }] };
    });
    const { served, projectDir } = await servedWithModel({
      protocol: "openai",
      url: model.url,
      files: workflowFiles(publishedNotes({ path: "docs/notes.md" })),
    });
    const client = await mcpClient(served, "/internal/mcp");
    const file = `${projectDir}/docs/notes.md`;
    try {
      for (const title of ["First", "Second"]) {
        let run = (await call<{ run: RunView }>(client, "flow", { flowName: "notes", intent: "Notes" })).run;
        run = await answer(client, run, [{ questionId: "title", isSkipped: false, answer: title }]);
        run = await answer(client, run, { isConfirmed: true });
        assert.equal(run.status, "completed");
      }
      const edited = (await Deno.readTextFile(file)).replace("Second", EDITED_TITLE) + `\n${NOTE}\n`;
      await Deno.writeTextFile(file, edited);

      await withBrowser(async (browser) => {
        const person = await newPerson(browser);
        const step = browserSteps(t);
        const { page } = await openStudio(person, served);
        await step("the edited file is named beside the Artifact, with Revise from this file", async () => {
          await page.getByRole("link", { name: "Artifacts", exact: true }).click();
          await page.getByRole("link", { name: "collect", exact: true }).click();
          await shown(page.getByText("docs/notes.md was edited since weft wrote revision 2"), "the drift");
          assert.equal(await Deno.readTextFile(file), edited);
          await page.getByRole("button", { name: "Revise from this file" }).click();
        });
        await step("the confirmation shows the field diff and the Markdown line diff", async () => {
          const form = await shown(page.getByRole("form", { name: "Answer: collect/confirm" }), "the form");
          await shown(page.getByText(/^art_\S+ \(revision 2\) from the edited docs\/notes\.md$/), "Revises");
          const fields = await shown(form.getByRole("region", { name: "Diff" }), "the field diff");
          await shown(fields.locator("del", { hasText: "Second" }), "the data's old title");
          await shown(fields.locator("ins", { hasText: EDITED_TITLE }), "the proposed title");
          const markdown = await shown(form.getByRole("region", { name: "Markdown diff" }), "the line diff");
          await shown(markdown.locator("del", { hasText: NOTE }), "the line the data does not carry");
          await shown(markdown.locator("span.same", { hasText: EDITED_TITLE }), "the title, kept");
          await screenshot(page, "revision-confirm");
          assert.equal(await Deno.readTextFile(file), edited, "nothing is written before the confirmation");
          await form.getByRole("button", { name: "Confirm" }).click();
        });
        await step("once confirmed, revision 3 is published over the edit", async () => {
          await eventually("the file to hold revision 3", async () => {
            const text = await Deno.readTextFile(file);
            return / {2}revision: 3\n/.test(text) ? text : undefined;
          }).then((text) => {
            assert.match(text, new RegExp(EDITED_TITLE));
            assert.doesNotMatch(text, new RegExp(NOTE));
          });
          await shown(
            page.getByText(/Revision of art_\S+ \(revision 2\) from the edited docs\/notes\.md/),
            "the timeline",
          );
          await shown(page.getByText("Published to docs/notes.md"), "the publication");
        });
        await person.close();
      });
    } finally {
      await closeClient(client);
      await served.stop();
      await model.close();
    }
  },
});
