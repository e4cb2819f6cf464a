/**
 * Editing a workflow while the service runs, as the terminal tells it: the advice is to look again (edits
 * apply without a restart, never "weft stop && weft start"); a broken workflow stops new Runs with a fix that
 * points at the workflow, while a Run already waiting goes on under the version it started with.
 */

import assert from "node:assert/strict";
import { runWeft, serve, tempProject, WEFT } from "../support/service.ts";
import { humanFlow, REVIEW_ANSWER, workflowFiles } from "../support/workflows.ts";

const REVIEW = humanFlow({ name: "review", title: "Review", description: "Asks, checks, confirms." });

Deno.test("a workflow broken while the service runs: the advice is true, and a waiting Run goes on", async () => {
  const files = workflowFiles(REVIEW);
  const cwd = await tempProject(files);
  const served = await serve(cwd);
  try {
    const started = await runWeft(["flow", "review", "--intent", "a review", "--json"], { cwd });
    const runId = JSON.parse(started.stdout).run.runId;
    const [file, text] = Object.entries(files)[0];
    await Deno.writeTextFile(`${cwd}/${file}`, text.replace('"entryStage"', '"entryStge"'));

    const refused = await runWeft(["flow", "review", "--intent", "another"], { cwd });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /INVALID_REQUEST: workflow "review" is unavailable/);
    assert.match(
      refused.stderr,
      new RegExp(`fix: fix workflow "review" as \`${WEFT} flows\` shows .*without a restart`),
    );

    const flows = await runWeft(["flows"], { cwd });
    assert.match(
      flows.stdout,
      new RegExp(`after fixing a workflow: ${WEFT} flows {2}\\(edits apply without a restart\\)`),
    );
    const doctor = await runWeft(["doctor"], { cwd });
    assert.match(doctor.stdout, /the service picks up edits without a restart/);
    for (const output of [refused.stderr, flows.stdout, doctor.stdout]) {
      assert.doesNotMatch(output, /weft stop && weft start/);
    }

    // The waiting Run was started under the version before the edit, and keeps it.
    const answered = await runWeft(["attach", runId, "--answer-json", "-", "--json"], {
      cwd,
      stdin: JSON.stringify(REVIEW_ANSWER),
    });
    assert.equal(answered.code, 0, answered.stderr);
    assert.equal(JSON.parse(answered.stdout).run.pendingAction.kind, "user_ask_confirmation");
  } finally {
    await served.stop();
    await Deno.remove(cwd, { recursive: true });
  }
});
