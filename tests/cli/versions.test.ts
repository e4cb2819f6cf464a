/**
 * Workflow versions in the terminal: `weft flows` shows each workflow's version and its active Runs on older
 * ones, `weft runs` and `weft run` show a Run's version, and `weft move` moves a waiting Run or says why not.
 */
import assert from "node:assert/strict";
import { runWeft, serve, tempProject, WEFT } from "../support/service.ts";
import { humanFlow, workflowFiles } from "../support/workflows.ts";
import type { Json } from "../support/json.ts";

const json = (stdout: string) => JSON.parse(stdout);

function manifest(edit: (stage: Json) => void = () => {}): Json {
  const value = structuredClone(humanFlow({ name: "notes", title: "Notes", description: "versions" }));
  edit(value.stages.collect);
  return value;
}

Deno.test("flows, runs and run show versions; move moves a waiting Run or refuses with the reason", async () => {
  const cwd = await tempProject(workflowFiles(manifest()));
  const write = (value: Json) =>
    Deno.writeTextFile(`${cwd}/workflows/notes/workflow.json`, JSON.stringify(value));
  const served = await serve(cwd);
  try {
    const started = await runWeft(["flow", "notes", "--intent", "first notes", "--json"], { cwd });
    assert.equal(started.code, 0, started.stderr);
    const { run } = json(started.stdout);
    await write(manifest((stage) => stage.steps.check.rules[0].message = "a longer title, please"));

    const flows = await runWeft(["flows"], { cwd });
    const current = json((await runWeft(["flows", "--json"], { cwd })).stdout).workflows
      .find((w: { name: string }) => w.name === "notes");
    assert.notEqual(current.version, run.version);
    assert.equal(current.olderActiveRuns, 1);
    assert.match(flows.stdout, new RegExp(`notes\\s+ready\\s+project\\s+${current.version}\\s+1\\s`));
    assert.match(flows.stdout, new RegExp(`${WEFT} move RUN`));

    const runs = await runWeft(["runs"], { cwd });
    assert.match(runs.stdout, new RegExp(`${run.runId}\\s+notes\\s+${run.version}\\s+waiting`));
    const shown = await runWeft(["run", run.runId], { cwd });
    assert.match(shown.stdout, new RegExp(`version\\s+${run.version}`));
    assert.match(
      shown.stdout,
      new RegExp(`the workflow is now ${current.version}.*${WEFT} move ${run.runId}`),
    );

    const moved = await runWeft(["move", run.runId, "--json"], { cwd });
    assert.equal(moved.code, 0, moved.stderr);
    assert.equal(json(moved.stdout).run.version, current.version);
    const again = await runWeft(["move", run.runId], { cwd });
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`^nothing moved: ${run.runId} already runs the current version`));

    await write(manifest((stage) => stage.steps.ask.questions[0].id = "headline"));
    const refused = await runWeft(["move", run.runId], { cwd });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /CONFLICT.*questions it waits on \(title, color, notes\) differ/);
    assert.match(refused.stderr, /fix: the Run goes on under its own version/);
  } finally {
    await served.stop();
    await Deno.remove(cwd, { recursive: true });
  }
});
