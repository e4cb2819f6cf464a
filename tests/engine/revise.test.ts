/**
 * Bringing a person's edit of a published file back: `reviseArtifact` starts a revision Run of the Artifact's
 * stage whose agent gets the data and the edited file, the stage's checks apply to its proposal, the person
 * confirms it shown as diffs, and the next revision of the same Artifact is published over the edit; never
 * over an edit made after the revision started, not even one made while the file is being written.
 */

import assert from "node:assert/strict";
import type { Engine } from "../../src/engine/engine.ts";
import type { RunView } from "../../src/engine/views.ts";
import { WeftError } from "../../src/errors.ts";
import { humanFlow, publishedNotes, TITLE_RULE, workflowFiles } from "../support/workflows.ts";
import { MemoryProject } from "../support/memory_project.ts";
import type { Json } from "../support/json.ts";
import { openEngine } from "./support.ts";

const FILE = "docs/notes.md";
const IDE = { source: "agent_ide", agentExecutor: "mcp_client" } as const;

/** The notes workflow published at docs/notes.md; with `check`, the title rule applies to what is committed. */
function project(check = false): MemoryProject {
  const manifest = check
    ? humanFlow({
      name: "notes",
      title: "Notes",
      description: "Asks for a title and publishes it.",
      questions: [{ id: "title", question: "Title?" }],
      data: "",
      check: TITLE_RULE,
    })
    : publishedNotes({ path: FILE });
  if (check) Object.assign(manifest.stages.collect, { publish: { path: FILE } });
  return new MemoryProject(workflowFiles(manifest));
}

/** One Run of `notes` committing `title`. */
async function commit(engine: Engine, title: string): Promise<RunView> {
  let run = await engine.startRun({ flowName: "notes", intent: "Notes", ...IDE });
  const answer = [{ questionId: "title", isSkipped: false, answer: title }];
  run = await engine.answerAsk({
    runId: run.runId,
    actionId: run.pendingAction!.id,
    answer,
    source: IDE.source,
  });
  run = await engine.answerAsk({
    runId: run.runId,
    actionId: run.pendingAction!.id,
    answer: { isConfirmed: true },
    source: IDE.source,
  });
  assert.equal(run.status, "completed", JSON.stringify(run.lastError));
  return run;
}

/** Claims the revision Run's agent call, reads its context and proposes `title`; returns the Run after. */
async function propose(
  engine: Engine,
  run: RunView,
  title: string,
): Promise<{ run: RunView; context: Json }> {
  const callId = run.pendingAgentCall!.id;
  const { task } = await engine.claimAgentCall({ runId: run.runId, callId, claimant: "mcp_client" });
  assert.deepEqual(task.tools.map((tool) => tool.id), ["run_context"]);
  const context = await engine.runAgentTool({ runId: run.runId, callId, toolId: "run_context", input: {} });
  const data = structuredClone((context as { state: { current: Json } }).state.current);
  data.answers[0].answer = title;
  const after = await engine.completeAgentCall({
    runId: run.runId,
    callId,
    result: { outcome: "revised", data },
  });
  return { run: after, context };
}

/** Three commits, the file edited by hand after the second: the engine and the edited text. */
async function editedProject(
  check = false,
): Promise<{ engine: Engine; files: MemoryProject; edited: string }> {
  const files = project(check);
  const engine = await openEngine({ project: files });
  await commit(engine, "First");
  await commit(engine, "Second");
  const edited = files.text(FILE)!.replace("Second", "Second, as a person wrote it");
  files.put(FILE, edited);
  await commit(engine, "Third");
  assert.equal(files.text(FILE), edited);
  return { engine, files, edited };
}

async function refused(promise: Promise<unknown>, code: string, message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof WeftError);
    assert.equal(error.code, code);
    assert.match(error.message, message);
    return true;
  });
}

Deno.test("revise: the edit comes back as revision 4 of the same Artifact, published over the edit once confirmed", async () => {
  const { engine, files, edited } = await editedProject();
  try {
    let run = await engine.reviseArtifact({ path: FILE, ...IDE });
    const artifact = await engine.getArtifact({ flowName: "notes", stageName: "collect" });
    assert.deepEqual(run.revisionOf, { artifactId: artifact!.artifactId, fromRevision: 3, path: FILE });
    assert.equal(run.status, "waiting");
    const proposed = await propose(engine, run, "Second, as a person wrote it");
    run = proposed.run;
    assert.equal(proposed.context.state.edited, edited, "the agent reads the edited file");
    assert.equal(
      proposed.context.state.current.answers[0].answer,
      "Third",
      "and the Artifact's current data",
    );

    assert.equal(run.pendingAction?.kind, "user_ask_confirmation");
    const review = (run.pendingAction!.request as { context: Record<string, string> }).context;
    assert.match(review.dataDiff, /^- +"answer": "Third"$/m);
    assert.match(review.dataDiff, /^\+ +"answer": "Second, as a person wrote it"$/m);
    assert.equal(review.markdownDiff, "", "the proposal renders to the body the person wrote");
    assert.equal(review.path, FILE);
    assert.equal(files.text(FILE), edited, "nothing is written before the person confirms");

    run = await engine.answerAsk({
      runId: run.runId,
      actionId: run.pendingAction!.id,
      answer: { isConfirmed: true },
      source: IDE.source,
    });
    assert.equal(run.status, "completed", JSON.stringify(run.lastError));
    const now = await engine.getArtifact({ flowName: "notes", stageName: "collect" });
    assert.equal(now?.artifactId, artifact!.artifactId);
    assert.equal(now?.revision, 4);
    assert.equal(now?.publication?.status, "published");
    const file = files.text(FILE)!;
    assert.match(file, / {2}revision: 4\n/);
    assert.match(file, new RegExp(`  run: ${run.runId}\n`));
    assert.match(file, /\*\*Title:\*\* Second, as a person wrote it/);
    const types = (await engine.getRunTimeline(run.runId)).map((event) => event.type);
    assert.deepEqual(types.slice(0, 2), ["run_created", "revision_started"]);
    assert.ok(types.includes("artifact_published"), types.join());

    await refused(
      engine.reviseArtifact({ path: FILE, ...IDE }),
      "INVALID_REQUEST",
      /as weft wrote it \(revision 4\)/,
    );
  } finally {
    await engine.close();
  }
});

Deno.test("revise: a path weft did not publish, an unchanged file and a deleted one are refused, and start nothing", async () => {
  const { engine, files } = await editedProject();
  try {
    const before = (await engine.listRuns({})).runs.length;
    await refused(
      engine.reviseArtifact({ path: "README.md", ...IDE }),
      "NOT_FOUND",
      /weft did not publish README\.md/,
    );
    files.remove(FILE);
    await refused(engine.reviseArtifact({ path: FILE, ...IDE }), "NOT_FOUND", /docs\/notes\.md is gone/);
    assert.equal((await engine.listRuns({})).runs.length, before);
  } finally {
    await engine.close();
  }
  const fresh = project();
  const unchanged = await openEngine({ project: fresh });
  try {
    await commit(unchanged, "Only");
    await refused(
      unchanged.reviseArtifact({ path: FILE, ...IDE }),
      "INVALID_REQUEST",
      /there is no edit to bring back/,
    );
  } finally {
    await unchanged.close();
  }
});

Deno.test("revise: an edit made after the revision started is left alone, before the write and during it", async () => {
  for (const when of ["before confirming", "while writing"]) {
    const { engine, files } = await editedProject();
    try {
      let run = await engine.reviseArtifact({ path: FILE, ...IDE });
      run = (await propose(engine, run, "Revised")).run;
      const again = files.text(FILE)! + "\nA later note.\n";
      if (when === "before confirming") files.put(FILE, again);
      else files.beforeWrite = (path) => path === FILE && files.put(FILE, again);
      run = await engine.answerAsk({
        runId: run.runId,
        actionId: run.pendingAction!.id,
        answer: { isConfirmed: true },
        source: IDE.source,
      });
      assert.equal(run.status, "completed");
      assert.equal(files.text(FILE), again, `the later edit is kept (${when})`);
      const skipped = (await engine.getRunTimeline(run.runId)).find((event) =>
        event.type === "publish_skipped"
      );
      assert.equal(skipped?.reason, "edited", when);
      assert.match(
        String(skipped?.message),
        when === "before confirming"
          ? /changed again after this revision started/
          : /changed while weft was writing/,
      );
      assert.equal((await engine.getArtifact({ flowName: "notes", stageName: "collect" }))?.revision, 4);
    } finally {
      await engine.close();
    }
  }
});

Deno.test("revise: the stage's checks apply to the proposal, which goes back to the agent with the feedback", async () => {
  const { engine } = await editedProject(true);
  try {
    let run = await engine.reviseArtifact({ path: FILE, ...IDE });
    run = (await propose(engine, run, "ab")).run;
    assert.equal(run.pendingAgentCall?.agentId, "reviser", "a too-short title is sent back");
    const { context } = await propose(engine, run, "Long enough");
    assert.deepEqual(context.state.feedback, ["title too short"]);
  } finally {
    await engine.close();
  }
});

Deno.test("revise: an exclusive workflow with an active Run refuses a revision Run too", async () => {
  const manifest = { ...publishedNotes({ path: FILE }), exclusive: true };
  const files = new MemoryProject(workflowFiles(manifest));
  const engine = await openEngine({ project: files });
  try {
    await commit(engine, "First");
    files.put(FILE, files.text(FILE) + "\nEdited.\n");
    await engine.startRun({ flowName: "notes", intent: "Notes", ...IDE });
    await refused(engine.reviseArtifact({ path: FILE, ...IDE }), "CONFLICT", /exclusive/);
  } finally {
    await engine.close();
  }
});

Deno.test("revise: a revision committed by another Run meanwhile is not committed over; the Run fails with CONFLICT", async () => {
  for (const when of ["before the proposal", "before confirming"]) {
    const { engine, files, edited } = await editedProject();
    try {
      let run = await engine.reviseArtifact({ path: FILE, ...IDE });
      if (when === "before the proposal") await commit(engine, "Fourth");
      run = (await propose(engine, run, "Revised")).run;
      if (when === "before confirming") {
        assert.equal(run.pendingAction?.kind, "user_ask_confirmation");
        await commit(engine, "Fourth");
        run = await engine.answerAsk({
          runId: run.runId,
          actionId: run.pendingAction!.id,
          answer: { isConfirmed: true },
          source: IDE.source,
        });
      }
      assert.equal(run.status, "failed", when);
      assert.equal(run.lastError?.code, "CONFLICT");
      assert.match(
        run.lastError!.message,
        /revision 4 of the Artifact was committed after this revision Run began/,
      );
      assert.match(run.lastError!.message, /weft revise docs\/notes\.md/);
      const artifact = await engine.getArtifact({ flowName: "notes", stageName: "collect" });
      assert.equal(artifact?.revision, 4, `the newer revision stays the newest (${when})`);
      assert.equal((artifact?.data as Json).answers[0].answer, "Fourth");
      assert.equal(files.text(FILE), edited, "the person's edit is left as it is");
      const types = (await engine.getRunTimeline(run.runId)).map((event) => event.type);
      assert.ok(!types.includes("artifact_committed"), types.join());

      const again = await engine.reviseArtifact({ path: FILE, ...IDE });
      assert.equal(again.revisionOf?.fromRevision, 4, "revising again starts from the newer revision");
    } finally {
      await engine.close();
    }
  }
});
