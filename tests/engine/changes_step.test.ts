/**
 * The `changes` step over the in-memory project: the engine marks the project's files when the Run starts
 * or the stage is entered (whichever the step compares with), and the step writes `{ files, diff,
 * cutBytes }` into the stage state and follows `changed` or `unchanged`; a baseline that could not be
 * marked fails the Run at the step, saying so.
 */
import assert from "node:assert/strict";
import type { Engine } from "../../src/engine/engine.ts";
import type { RunView } from "../../src/engine/views.ts";
import { unifiedDiff } from "../../src/lib/unified_diff.ts";
import { MemoryProject } from "../support/memory_project.ts";
import { editingFiles } from "../support/workflows.ts";
import { claimFirstCall, openEngine } from "./support.ts";
import { within } from "../support/deadline.ts";

/** Starts `editing`, lets `edit` change the project through the agent's tools, completes the call. */
async function editThenReview(
  engine: Engine,
  edit: (tool: (id: string, input: unknown) => Promise<unknown>) => Promise<void>,
): Promise<RunView> {
  const { run, callId, tool } = await claimFirstCall(engine, "editing");
  await edit(tool);
  return await engine.completeAgentCall({ runId: run.runId, callId, result: { outcome: "done" } });
}

const context = (run: RunView) =>
  (run.pendingAction?.request as { context: { files: unknown[]; diff: string; cutBytes: number } }).context;

Deno.test("changes: what the agent changed since the stage began is written into the state for confirmation", async () => {
  const project = new MemoryProject({ ...editingFiles(), "README.md": "# Demo\n", "old.txt": "gone\n" });
  const engine = await openEngine({ project });
  try {
    const run = await editThenReview(engine, async (tool) => {
      await tool("patch", { path: "README.md", edits: [{ search: "# Demo", replace: "# Demo\n\nMore." }] });
      await tool("write", { path: "src/new.ts", content: "export {};\n" });
      // A change the agent did not make is a change all the same: the person sees the project's files.
      project.remove("old.txt");
      project.put(".env", "TOKEN=never shown\n");
    });
    assert.equal(run.status, "waiting");
    assert.equal(run.cursor.stepName, "review");
    const changes = context(run);
    assert.deepEqual(changes.files, [
      { path: "README.md", status: "modified" },
      { path: "old.txt", status: "deleted" },
      { path: "src/new.ts", status: "added" },
    ]);
    assert.match(
      changes.diff,
      /^diff --git a\/README\.md b\/README\.md\n--- a\/README\.md\n\+\+\+ b\/README\.md\n/,
    );
    assert.match(changes.diff, /\n\+More\.\n/);
    assert.match(changes.diff, /\+\+\+ b\/src\/new\.ts\n@@ -0,0 \+1 @@\n\+export \{\};\n/);
    assert.doesNotMatch(changes.diff, /TOKEN/);
    assert.equal(changes.cutBytes, 0);
    const events = (await engine.getRunTimeline(run.runId)).map((event) => event.type);
    assert.deepEqual(events.filter((type) => type.startsWith("changes_")), [
      "changes_baseline",
      "changes_read",
    ]);
    assert.ok(events.indexOf("changes_baseline") < events.indexOf("agent_call_started"), events.join(", "));
    // The timeline keeps the files and the diff, so a list's earlier items can still be shown.
    const read = (await engine.getRunTimeline(run.runId)).find((event) => event.type === "changes_read");
    assert.deepEqual(read?.changed, changes.files);
    assert.equal(read?.diff, changes.diff);
    assert.equal(read?.diffCutBytes, 0);
  } finally {
    await engine.close();
  }
});

Deno.test("changes: nothing changed follows `unchanged` with an empty list", async () => {
  const project = new MemoryProject({ ...editingFiles(), "README.md": "# Demo\n" });
  const engine = await openEngine({ project });
  try {
    const run = await editThenReview(engine, async () => {});
    assert.deepEqual(context(run), { files: [], diff: "", cutBytes: 0 });
    const read = (await engine.getRunTimeline(run.runId)).find((event) => event.type === "changes_read");
    assert.equal(read?.files, 0);
    assert.deepEqual(read?.changed, []);
  } finally {
    await engine.close();
  }
});

Deno.test("changes: a diff past maxDiffBytes is cut at a line's end and the bytes left out are counted", async () => {
  const files = editingFiles();
  const manifest = JSON.parse(files["workflows/editing/workflow.json"]);
  manifest.stages.change.steps.changes.maxDiffBytes = 1024;
  files["workflows/editing/workflow.json"] = JSON.stringify(manifest);
  const project = new MemoryProject(files);
  const engine = await openEngine({ project });
  try {
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i}\n`).join("");
    const run = await editThenReview(
      engine,
      async (tool) => void await tool("write", { path: "long.txt", content: lines }),
    );
    const { diff, cutBytes } = context(run);
    const whole = "diff --git a/long.txt b/long.txt\n" + unifiedDiff("long.txt", null, lines, Infinity).diff;
    const size = (text: string) => new TextEncoder().encode(text).length;
    assert.ok(size(diff) <= 1024 && size(diff) > 900, `${size(diff)} bytes kept`);
    assert.ok(
      whole.startsWith(diff) && diff.endsWith("\n"),
      "the start of the diff, cut at the end of a line",
    );
    assert.equal(size(diff) + cutBytes, size(whole), "the bytes left out are counted");
  } finally {
    await engine.close();
  }
});

Deno.test("changes: since the Run's start, the mark is taken once when the Run is created", async () => {
  const project = new MemoryProject({ ...editingFiles({ since: "run" }), "a.txt": "a\n" });
  const engine = await openEngine({ project });
  try {
    const run = await editThenReview(
      engine,
      async (tool) => void await tool("write", { path: "a.txt", content: "b\n" }),
    );
    assert.deepEqual(context(run).files, [{ path: "a.txt", status: "modified" }]);
    const timeline = await engine.getRunTimeline(run.runId);
    const baseline = timeline.find((event) => event.type === "changes_baseline");
    assert.equal(baseline?.baseline, "run");
    assert.equal(timeline.indexOf(baseline!), 1, "right after run_created, before the stage is entered");
  } finally {
    await engine.close();
  }
});

Deno.test("changes: a baseline that could not be marked fails the Run at the step, saying why", async () => {
  const project = new MemoryProject(editingFiles());
  project.changesFailure = new Error("disk full at /home/someone/project");
  const engine = await openEngine({ project });
  try {
    const run = await editThenReview(engine, async () => {});
    assert.equal(run.status, "failed");
    assert.equal(run.lastError?.code, "TOOL_FAILED");
    assert.equal(
      run.lastError?.message,
      "the changes since the stage's start could not be read: the files were not recorded then",
    );
    const failed = (await engine.getRunTimeline(run.runId)).find((event) =>
      event.type === "changes_baseline_failed"
    );
    assert.equal((failed?.error as { code: string }).code, "INTERNAL");
    assert.doesNotMatch(JSON.stringify(failed), /home\/someone/, "no machine path reaches the timeline");
  } finally {
    await engine.close();
  }
});

Deno.test("changes: another Run's operation completes while a Run's project files are being read", async () => {
  const project = new MemoryProject({ ...editingFiles(), "README.md": "# Demo\n" });
  const engine = await openEngine({ project });
  const other = await claimFirstCall(engine, "editing");
  const slow = await claimFirstCall(engine, "editing");
  const held = project.holdChanges();
  let reading: Promise<RunView> | undefined;
  try {
    reading = engine.completeAgentCall({
      runId: slow.run.runId,
      callId: slow.callId,
      result: { outcome: "done" },
    });
    await within("the changes step's read to begin", held.reached);
    // The store is not held while git reads: the other Run is answered now, not after the read.
    const cancelled = await within(
      "another Run's operation while the read is held",
      engine.cancelRun(other.run.runId, "agent_ide"),
    );
    assert.equal(cancelled.status, "cancelled");
    assert.equal(
      (await engine.getRun(slow.run.runId)).cursor.stepName,
      "edit",
      "nothing applied before the read",
    );
    held.release();
    const read = await within("the held change", reading);
    assert.equal(read.status, "waiting");
    assert.equal(read.cursor.stepName, "review");
    assert.deepEqual(context(read).files, []);
  } finally {
    held.release();
    await reading?.catch(() => {});
    await engine.close();
  }
});

Deno.test("changes: a Run cancelled while its files are read is not moved on by the read", async () => {
  const project = new MemoryProject({ ...editingFiles(), "README.md": "# Demo\n" });
  const engine = await openEngine({ project });
  const { run, callId } = await claimFirstCall(engine, "editing");
  const held = project.holdChanges();
  const reading = engine.completeAgentCall({ runId: run.runId, callId, result: { outcome: "done" } });
  try {
    await within("the changes step's read to begin", held.reached);
    await engine.cancelRun(run.runId, "agent_ide");
    held.release();
    await assert.rejects(reading, (error: Error & { code?: string }) => error.code === "CONFLICT");
    assert.equal((await engine.getRun(run.runId)).status, "cancelled");
    const types = (await engine.getRunTimeline(run.runId)).map((event) => event.type);
    assert.ok(!types.includes("changes_read") && !types.includes("agent_call_completed"), types.join(", "));
  } finally {
    held.release();
    await reading.catch(() => {});
    await engine.close();
  }
});

Deno.test("changes: a Run whose start marks the files is created after the read, its checks made again", async () => {
  const project = new MemoryProject({ ...editingFiles({ since: "run" }), "a.txt": "a\n" });
  const engine = await openEngine({ project });
  const held = project.holdChanges();
  const starting = engine.startRun({
    flowName: "editing",
    intent: "change the files",
    source: "agent_ide",
    agentExecutor: "mcp_client",
  });
  try {
    await within("the Run's first mark to begin", held.reached);
    const meanwhile = await within("a read of the store while the mark is held", engine.listRuns({}));
    assert.deepEqual(meanwhile.runs, [], "the Run appears only with its baseline");
    held.release();
    const run = await within("the held start", starting);
    assert.equal(run.status, "waiting");
    const timeline = await engine.getRunTimeline(run.runId);
    assert.deepEqual(timeline.slice(0, 2).map((event) => event.type), ["run_created", "changes_baseline"]);
  } finally {
    held.release();
    await starting.catch(() => {});
    await engine.close();
  }
});
