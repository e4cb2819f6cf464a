/**
 * Edits come back, end to end against a real service: a project workflow that publishes commits twice (the
 * file holds each revision in turn, with frontmatter); the file is edited by hand and a third revision is
 * committed (the file is left alone and the drift reported); `weft revise` on it, with the service's model
 * scripted, yields revision 4, published over the edit only once the person confirms. A path weft never
 * published is refused with a fix.
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { answer } from "../agent/support.ts";
import { call, closeClient, mcpClient, runWeft } from "../support/service.ts";
import { publishedNotes, workflowFiles } from "../support/workflows.ts";
import { conversationText, scriptedServer, turnOf } from "../model/scripted_server.ts";
import { servedWithModel, timelineOf, waitForRun } from "../model/support.ts";

const EDITED_TITLE = "Second, as a person wrote it";

Deno.test("weft revise brings a hand edit back as revision 4, published over the edit only after the person confirms", async () => {
  // The service's model: reads the run context, then proposes the title the person wrote in the file.
  const model = scriptedServer("openai", (request) => {
    if (turnOf(request) === 0) return { calls: [{ name: "run_context", input: {} }] };
    const seen = conversationText(request).includes(EDITED_TITLE);
    const title = seen ? EDITED_TITLE : "the model never saw the edit";
    return {
      calls: [{
        name: "complete_agent_call",
        input: {
          outcome: "revised",
          data: { answers: [{ questionId: "title", isSkipped: false, answer: title }] },
        },
      }],
    };
  });
  const { served, projectDir } = await servedWithModel({
    protocol: "openai",
    url: model.url,
    files: workflowFiles(publishedNotes({ path: "docs/notes.md" })),
  });
  const person = await mcpClient(served, "/internal/mcp");
  const file = `${projectDir}/docs/notes.md`;
  const commit = async (title: string): Promise<RunView> => {
    let run = (await call<{ run: RunView }>(person, "flow", { flowName: "notes", intent: "Notes" })).run;
    run = await answer(person, run, [{ questionId: "title", isSkipped: false, answer: title }]);
    run = await answer(person, run, { isConfirmed: true });
    assert.equal(run.status, "completed", JSON.stringify(run));
    return run;
  };
  const cwd = projectDir;
  try {
    await commit("First");
    assert.match(
      await Deno.readTextFile(file),
      /^---\nweft:\n(?:.*\n)* {2}revision: 1\n(?:.*\n)*---\n[\s\S]*First/,
    );
    await commit("Second");
    const second = await Deno.readTextFile(file);
    assert.match(second, /^---\nweft:\n(?:.*\n)* {2}revision: 2\n(?:.*\n)*---\n[\s\S]*Second/);

    const edited = second.replace("Second", EDITED_TITLE);
    await Deno.writeTextFile(file, edited);
    const third = await commit("Third");
    assert.equal(await Deno.readTextFile(file), edited, "the third revision left the edit alone");
    const skipped = (await timelineOf(person, third.runId)).find((event) => event.type === "publish_skipped");
    assert.match(String(skipped?.message), /docs\/notes\.md was changed since weft wrote revision 2/);
    const status = await call<{ service: { publications: { changed: unknown[] } } }>(person, "status");
    assert.deepEqual(status.service.publications.changed.map((c) => (c as { state: string }).state), [
      "edited",
    ]);

    const unpublished = await runWeft(["revise", "README.md", "--no-interactive"], { cwd });
    assert.equal(unpublished.code, 1);
    assert.match(unpublished.stderr, /NOT_FOUND.*weft did not publish README\.md/);
    assert.match(unpublished.stderr, /fix: .*doctor` lists the published files you edited/);

    const started = await runWeft(["revise", "docs/notes.md", "--no-interactive", "--json"], { cwd });
    assert.equal(started.code, 0, started.stderr);
    const runId = (JSON.parse(started.stdout) as { run: RunView }).run.runId;
    let run = await waitForRun(
      person,
      runId,
      "waiting for the confirmation",
      (r) => r.pendingAction !== undefined,
    );
    assert.equal(run.pendingAction?.kind, "user_ask_confirmation", JSON.stringify(run));
    const review = (run.pendingAction!.request as { context: { dataDiff: string } }).context;
    assert.match(review.dataDiff, /^- +"answer": "Third"$/m);
    assert.match(review.dataDiff, new RegExp(`^\\+ +"answer": "${EDITED_TITLE}"$`, "m"));
    assert.equal(await Deno.readTextFile(file), edited, "nothing is written before the person confirms");

    const shown = await runWeft(["run", runId], { cwd, env: { COLUMNS: "200" } });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /revises +art_\S+ \(revision 3\) from the edited docs\/notes\.md/);
    assert.match(shown.stdout, /revision_started .*a revision of art_\S+ \(revision 3\) from the edited/);

    run = await answer(person, run, { isConfirmed: true });
    run = await waitForRun(
      person,
      runId,
      "completed",
      (r) => r.status !== "running" && r.status !== "waiting",
    );
    assert.equal(run.status, "completed", JSON.stringify(run));
    const published = await Deno.readTextFile(file);
    assert.match(published, / {2}revision: 4\n/);
    assert.match(published, new RegExp(`  run: ${runId}\n`));
    assert.match(published, new RegExp(EDITED_TITLE));
    const artifact = await call<{ artifact: { revision: number; publication?: { status: string } } }>(
      person,
      "get_artifact",
      { flowName: "notes", stageName: "collect" },
    );
    assert.equal(artifact.artifact.revision, 4);
    assert.equal(artifact.artifact.publication?.status, "published");
  } finally {
    await closeClient(person);
    await served.stop();
    await model.close();
  }
});
