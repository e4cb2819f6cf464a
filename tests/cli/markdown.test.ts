/**
 * Markdown in the terminal: a field its workflow's schema marks `text/markdown` prints as plain text (no
 * `**`, bullets as "•", links as "text (url)") in a confirmation and in `weft artifact`; `--json` keeps the
 * raw data.
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient, runWeft, withServedProject } from "../support/service.ts";
import { MARKDOWN_BRIEF, workflowFiles } from "../support/workflows.ts";

const BRIEF_TEXT = "# Export\n\nAdds **CSV export** to *reports*.\n\n- first point\n- second point\n\n" +
  "See [the docs](https://example.com/docs).";

Deno.test("markdown in the terminal: a confirmation and an Artifact print their Markdown fields as text", async () => {
  await withServedProject({ files: workflowFiles(MARKDOWN_BRIEF) }, async (served) => {
    const cwd = served.projectDir;
    const client = await mcpClient(served, "/internal/mcp");
    try {
      const answer = async (runId: string, value: unknown) => {
        const { run } = await call<{ run: RunView }>(client, "get_run", { runId });
        await call(client, "answer_ask", { runId, actionId: run.pendingAction!.id, answer: value });
      };
      const { run } = await call<{ run: RunView }>(client, "flow", { flowName: "brief", intent: "A brief" });
      const runId = run.runId;
      await answer(runId, [{ questionId: "brief", isSkipped: false, answer: BRIEF_TEXT }]);
      const expected = [
        /Export\n\s*======/,
        /Adds CSV export to reports\./,
        /• first point\n\s*• second point/,
        /See the docs \(https:\/\/example\.com\/docs\)\./,
      ];

      const attach = await runWeft(["attach", runId, "--no-interactive"], { cwd });
      for (const pattern of expected) assert.match(attach.stdout, pattern, attach.stdout);
      assert.doesNotMatch(attach.stdout, /\*\*|\[the docs\]/, "the confirmation shows no Markdown marks");

      await answer(runId, { isConfirmed: true });
      const artifact = await runWeft(["artifact", "--flow", "brief", "--stage", "collect"], { cwd });
      assert.equal(artifact.code, 0, artifact.stderr);
      for (const pattern of expected) assert.match(artifact.stdout, pattern, artifact.stdout);
      assert.doesNotMatch(artifact.stdout, /\*\*|\[the docs\]/, "the Artifact shows no Markdown marks");

      const raw = await runWeft(["artifact", "--flow", "brief", "--stage", "collect", "--json"], { cwd });
      const { artifact: view } = JSON.parse(raw.stdout);
      assert.equal(view.data[0].answer, BRIEF_TEXT, "--json keeps the Markdown as written");
      assert.deepEqual(view.markdown, ["/0/answer"]);
    } finally {
      await closeClient(client);
    }
  });
});
