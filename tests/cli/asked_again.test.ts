/**
 * Why a question comes back, said where a person reads the Run: a failed check's message and a revision's
 * feedback, in `attach` without a terminal and in `weft run`. (At prompts: tests/cli/terminal.test.ts.)
 */

import assert from "node:assert/strict";
import { runWeft, serve, tempProject } from "../support/service.ts";
import { humanFlow, REVIEW_ANSWER, workflowFiles } from "../support/workflows.ts";

const REVIEW = humanFlow({
  name: "review",
  title: "Review",
  description: "Asks, checks the title, confirms.",
});

Deno.test("after a failed check or a revision, attach and run say why the questions come back", async () => {
  const cwd = await tempProject(workflowFiles(REVIEW));
  const served = await serve(cwd);
  try {
    const started = await runWeft(["flow", "review", "--intent", "a review", "--json"], { cwd });
    const { runId } = JSON.parse(started.stdout).run;
    const shortTitle = [{ ...REVIEW_ANSWER[0], answer: "ab" }, ...REVIEW_ANSWER.slice(1)];
    const checked = await runWeft(["attach", runId, "--answer-json", "-"], {
      cwd,
      stdin: JSON.stringify(shortTitle),
    });
    assert.equal(checked.code, 0, checked.stderr);
    assert.match(checked.stdout, /This comes back because:\n {2}• check: title too short\n/);
    assert.match(checked.stdout, /Questions \(action/);
    const run = await runWeft(["run", runId], { cwd });
    assert.match(run.stdout, /This comes back because:\n {2}• check: title too short\n/);
    // --json keeps the Run as it is: the reasons are in its timeline, not mixed into the document.
    const json = await runWeft(["run", runId, "--json"], { cwd });
    assert.doesNotMatch(json.stdout, /This comes back/);

    await runWeft(["attach", runId, "--answer-json", "-"], { cwd, stdin: JSON.stringify(REVIEW_ANSWER) });
    const revised = await runWeft(["attach", runId, "--answer-json", "-"], {
      cwd,
      stdin: JSON.stringify({ isConfirmed: false, feedback: "Name the release." }),
    });
    assert.match(revised.stdout, /This comes back because:\n {2}• revision requested: Name the release\.\n/);
    const answered = await runWeft(["attach", runId, "--answer-json", "-"], {
      cwd,
      stdin: JSON.stringify(REVIEW_ANSWER),
    });
    // Answered in full this time: the confirmation is asked without a reason.
    assert.match(answered.stdout, /Confirm \(action/);
    assert.doesNotMatch(answered.stdout, /This comes back/);
  } finally {
    await served.stop();
    await Deno.remove(cwd, { recursive: true });
  }
});
