/**
 * Workflow versions end to end over HTTP: a Run finishes under the definition it started with whatever
 * happens to its workflow (a renamed step, a changed question id or state schema, a deleted folder, a
 * restart in between), while new Runs get the current definition.
 */
import assert from "node:assert/strict";
import type { ArtifactView, RunView, WorkflowView } from "../../src/engine/views.ts";
import type { Client } from "../support/sdk_test_client.ts";
import { call, closeClient, mcpClient, serve, type ServedProject, tempProject } from "../support/service.ts";
import { humanFlow, REVIEW_ANSWER, REVIEW_RECORDED, workflowFiles } from "../support/workflows.ts";
import type { Json } from "../support/json.ts";

// Manifests are edited freely here, as a person edits workflow.json.

type RunResult = { run: RunView };

/** A human-only workflow (ask → check → confirm → commit) named `name`. */
function manifestOf(name: string): Json {
  // A copy: the questions are shared constants of the support module, and the edits below change them.
  return structuredClone(humanFlow({ name, title: `Flow ${name}`, description: "versions test" }));
}

/** Rewrites `workflows/<name>/workflow.json` with `edit` applied to its only stage. */
async function editStage(dir: string, name: string, edit: (stage: Json) => void): Promise<void> {
  const manifest = manifestOf(name);
  edit(manifest.stages.collect);
  await Deno.writeTextFile(`${dir}/workflows/${name}/workflow.json`, JSON.stringify(manifest, null, 2));
}

/** The four edits a waiting Run must survive, one workflow each. */
const EDITS: Record<string, (dir: string) => Promise<void>> = {
  renamed: (dir) =>
    editStage(dir, "renamed", (stage) => {
      stage.steps.questions = stage.steps.ask;
      delete stage.steps.ask;
      stage.entryStep = "questions";
      stage.steps.check.routes.invalid = "questions";
      stage.steps.confirm.routes.revise = "questions";
    }),
  requestion: (dir) =>
    editStage(dir, "requestion", (stage) => {
      stage.steps.ask.questions[0].id = "headline";
    }),
  reschema: (dir) =>
    editStage(dir, "reschema", (stage) => {
      stage.state.schema.properties.answers = { type: "string" };
    }),
  deleted: (dir) => Deno.remove(`${dir}/workflows/deleted`, { recursive: true }),
};

function projectFiles(): Record<string, string> {
  return Object.assign({}, ...Object.keys(EDITS).map((name) => workflowFiles(manifestOf(name))));
}

async function workflows(client: Client): Promise<WorkflowView[]> {
  return (await call<{ workflows: WorkflowView[] }>(client, "list_workflows")).workflows;
}

/** Answers the questions and the confirmation of a waiting Run and returns it completed. */
async function finish(client: Client, run: RunView): Promise<RunView> {
  for (const answer of [REVIEW_ANSWER, { isConfirmed: true }]) {
    assert.equal(run.status, "waiting", `Run ${run.runId} of ${run.flowName} waits for a person`);
    ({ run } = await call<RunResult>(client, "answer_ask", {
      runId: run.runId,
      actionId: run.pendingAction!.id,
      answer,
    }));
  }
  assert.equal(run.status, "completed", `Run of ${run.flowName}: ${JSON.stringify(run.lastError)}`);
  const { artifact } = await call<{ artifact: ArtifactView }>(client, "get_artifact", {
    flowName: run.flowName,
    stageName: "collect",
  });
  assert.deepEqual(artifact.data, REVIEW_RECORDED);
  return run;
}

/** Starts one Run of every edited workflow, applies the edits (restarting in between when asked), finishes them. */
async function survivesEdits(restart: boolean): Promise<void> {
  const dir = await tempProject(projectFiles());
  let served: ServedProject = await serve(dir);
  let cli = await mcpClient(served, "/internal/mcp");
  try {
    const before = new Map((await workflows(cli)).map((w) => [w.name, w]));
    const runs: RunView[] = [];
    for (const name of Object.keys(EDITS)) {
      const { run } = await call<RunResult>(cli, "flow", { flowName: name, intent: `edit ${name}` });
      assert.match(run.version!, /^[0-9a-f]{12}$/);
      assert.equal(run.version, before.get(name)!.version, "a new Run gets the current version");
      runs.push(run);
    }
    if (restart) {
      await closeClient(cli);
      await served.stop();
    }
    for (const edit of Object.values(EDITS)) await edit(dir);
    if (restart) {
      served = await serve(dir);
      cli = await mcpClient(served, "/internal/mcp");
    }

    const after = new Map((await workflows(cli)).map((w) => [w.name, w]));
    assert.equal(after.has("deleted"), false);
    for (const name of ["renamed", "requestion", "reschema"]) {
      const view = after.get(name)!;
      assert.ok(view.available, `${name}: ${view.reason}`);
      assert.notEqual(view.version, before.get(name)!.version, `editing ${name} makes a new version`);
      assert.equal(view.olderActiveRuns, 1, `${name} has one active Run on its older version`);
    }

    for (const started of runs) {
      const { run } = await call<RunResult>(cli, "get_run", { runId: started.runId });
      assert.equal(run.version, started.version, "a Run keeps its version");
      assert.equal(run.cursor.stepName, "ask", "it stays where its own version has it");
      const done = await finish(cli, run);
      assert.equal(done.version, started.version);
    }
    const settled = new Map((await workflows(cli)).map((w) => [w.name, w]));
    for (const name of ["renamed", "requestion", "reschema"]) {
      assert.equal(settled.get(name)!.olderActiveRuns, 0);
    }

    // New Runs follow the edited definitions.
    const renamed = (await call<RunResult>(cli, "flow", { flowName: "renamed", intent: "new" })).run;
    assert.equal(renamed.version, after.get("renamed")!.version);
    assert.equal(renamed.cursor.stepName, "questions");
    const requestion = (await call<RunResult>(cli, "flow", { flowName: "requestion", intent: "new" })).run;
    const questions = (requestion.pendingAction!.request as { questions: { id: string }[] }).questions;
    assert.equal(questions[0].id, "headline");
    const reschema = (await call<RunResult>(cli, "flow", { flowName: "reschema", intent: "new" })).run;
    const refused = await cli.callTool({
      name: "answer_ask",
      arguments: { runId: reschema.runId, actionId: reschema.pendingAction!.id, answer: REVIEW_ANSWER },
    });
    assert.equal(refused.isError, true, "the new state schema applies to the new Run");
  } finally {
    await closeClient(cli);
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a waiting Run finishes under its own version after its step is renamed, a question id or the state schema changes, or its folder is deleted", async () => {
  await survivesEdits(false);
});

Deno.test("the same edits made while the service is stopped: after the restart each Run still finishes under its own version", async () => {
  await survivesEdits(true);
});
