/**
 * The edit tools over the in-memory project: a write creates a file and its folders, a patch changes one by
 * exact search/replace, each write is one timeline event with its unified diff; what the read tools may not
 * touch (`.git`, `.weft`, `.env*`, `..`, links) is not written either, and a refused edit changes nothing;
 * writes are bounded per file and per agent call, and a project workflow's edits need the person's trust.
 */
import assert from "node:assert/strict";
import type { Engine } from "../../src/engine/engine.ts";
import type { RunView } from "../../src/engine/views.ts";
import { MAX_EDIT_BYTES, MAX_WRITES_PER_CALL } from "../../src/engine/file_edits.ts";
import { WeftError } from "../../src/errors.ts";
import { MemoryProject } from "../support/memory_project.ts";
import { editingFiles, editingFlow } from "../support/workflows.ts";
import { claimFirstCall, openEngine } from "./support.ts";

const written = async (engine: Engine, run: RunView) =>
  (await engine.getRunTimeline(run.runId)).filter((event) => event.type === "project_file_written");

const code = (expected: string) => (error: unknown) => error instanceof WeftError && error.code === expected;

Deno.test("edit tools: a write creates a file and its folders, a patch changes it, each write is on the timeline with its diff", async () => {
  const project = new MemoryProject({
    ...editingFiles(),
    "src/app.ts": "export const a = 1;\nexport const b = 2;\n",
  });
  const engine = await openEngine({ project });
  try {
    const { run, tool } = await claimFirstCall(engine, "editing");
    assert.deepEqual(await tool("write", { path: "notes/new/todo.md", content: "# Todo\n" }), {
      path: "notes/new/todo.md",
      status: "created",
      size: 7,
    });
    assert.equal(project.text("notes/new/todo.md"), "# Todo\n");
    assert.deepEqual(
      await tool("patch", { path: "./src//app.ts", edits: [{ search: "b = 2", replace: "b = 3" }] }),
      { path: "src/app.ts", status: "modified", size: 40 },
    );
    assert.equal(project.text("src/app.ts"), "export const a = 1;\nexport const b = 3;\n");
    // Writing what is there already changes nothing and records nothing.
    assert.equal(
      (await tool("write", { path: "notes/new/todo.md", content: "# Todo\n" }) as { status: string }).status,
      "unchanged",
    );

    const events = await written(engine, run);
    assert.deepEqual(events.map((event) => [event.path, event.status, event.toolId]), [
      ["notes/new/todo.md", "created", "write"],
      ["src/app.ts", "modified", "patch"],
    ]);
    assert.equal(events[0].callId, run.pendingAgentCall!.id);
    assert.equal(events[0].diff, "--- /dev/null\n+++ b/notes/new/todo.md\n@@ -0,0 +1 @@\n+# Todo\n");
    assert.equal(
      events[1].diff,
      "--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,2 +1,2 @@\n export const a = 1;\n-export const b = 2;\n+export const b = 3;\n",
    );
    assert.equal(events[1].diffCutBytes, 0);
  } finally {
    await engine.close();
  }
});

Deno.test("edit tools: a patch whose search is missing or not unique is refused and changes nothing", async () => {
  const text = "one\ntwo\ntwo\n";
  const project = new MemoryProject({ ...editingFiles(), "list.txt": text, "row.txt": "aaa\n" });
  const engine = await openEngine({ project });
  try {
    const { run, tool } = await claimFirstCall(engine, "editing");
    await assert.rejects(
      () => tool("patch", { path: "list.txt", edits: [{ search: "three", replace: "3" }] }),
      /the search text does not occur in list\.txt/,
    );
    await assert.rejects(
      () =>
        tool("patch", {
          path: "list.txt",
          edits: [{ search: "one", replace: "1" }, { search: "two", replace: "2" }],
        }),
      /edit 2: the search text occurs more than once in list\.txt; include more of the lines around it/,
    );
    await assert.rejects(
      () => tool("patch", { path: "missing.txt", edits: [{ search: "a", replace: "b" }] }),
      /no such file: missing\.txt; write_project_file creates a file/,
    );
    // Two occurrences that overlap are two occurrences: which one to replace is not known.
    await assert.rejects(
      () => tool("patch", { path: "row.txt", edits: [{ search: "aa", replace: "b" }] }),
      /the search text occurs more than once in row\.txt/,
    );
    assert.equal(project.text("row.txt"), "aaa\n");
    assert.equal(project.text("list.txt"), text, "an edit refused half-way wrote nothing");
    assert.deepEqual(await written(engine, run), []);
  } finally {
    await engine.close();
  }
});

Deno.test("edit tools: nothing is written into .git, .weft, .env*, outside the project or through a link", async () => {
  const project = new MemoryProject({ ...editingFiles(), ".git/config": "[core]\n", ".env": "TOKEN=1\n" });
  project.link("linked", "/etc");
  project.mkdir("real");
  project.link("real/file.txt", "/etc/passwd");
  const engine = await openEngine({ project });
  try {
    const { run, tool } = await claimFirstCall(engine, "editing");
    const before = project.paths();
    for (
      const path of [
        ".git/config",
        ".git/hooks/post-index-change",
        ".GIT/config",
        ".weft/weft.db",
        ".env",
        ".env.local",
        "config/.ENV.production",
        "../outside.txt",
        "src/../../outside.txt",
        "/etc/passwd",
        "linked/passwd",
        "real/file.txt",
      ]
    ) {
      await assert.rejects(() => tool("write", { path, content: "x" }), code("INVALID_REQUEST"), path);
      await assert.rejects(
        () => tool("patch", { path, edits: [{ search: "a", replace: "b" }] }),
        code("INVALID_REQUEST"),
        path,
      );
    }
    assert.deepEqual(project.paths(), before);
    assert.equal(project.text(".env"), "TOKEN=1\n");
    assert.deepEqual(await written(engine, run), []);
  } finally {
    await engine.close();
  }
});

Deno.test("edit tools: a file is bounded, and so is how many files one agent call writes", async () => {
  const project = new MemoryProject({ ...editingFiles(), "big.txt": "x".repeat(MAX_EDIT_BYTES + 1) });
  const engine = await openEngine({ project });
  try {
    const { run, tool } = await claimFirstCall(engine, "editing");
    await assert.rejects(
      () => tool("write", { path: "huge.txt", content: "é".repeat(MAX_EDIT_BYTES / 2 + 1) }),
      /huge\.txt would take 262146 bytes; an edit may leave at most 262144/,
    );
    await assert.rejects(
      () => tool("patch", { path: "big.txt", edits: [{ search: "x", replace: "y" }] }),
      /big\.txt is larger than 262144 bytes/,
    );
    for (let i = 0; i < MAX_WRITES_PER_CALL; i++) {
      await tool("write", { path: `out/${i}.txt`, content: `${i}\n` });
    }
    await assert.rejects(
      () => tool("write", { path: "out/one-more.txt", content: "x" }),
      /this agent call has written 64 files, its bound/,
    );
    assert.equal(project.text("out/one-more.txt"), undefined);
    assert.equal((await written(engine, run)).length, MAX_WRITES_PER_CALL);
  } finally {
    await engine.close();
  }
});

Deno.test("edit tools: a project workflow writes only what the person trusts; weft's own workflows are trusted by shipping", async () => {
  const project = new MemoryProject(editingFiles());
  const asked: unknown[] = [];
  const engine = await openEngine({
    project,
    editRefusal: (
      site,
    ) => (asked.push(site), "you have not trusted this project's workflows: run `weft trust`"),
    manifest: editingFlow({ name: "review" }),
    manifestFiles: { "editor.md": "# Editor\n" },
  });
  try {
    const { run, tool } = await claimFirstCall(engine, "editing");
    await assert.rejects(
      () => tool("write", { path: "a.txt", content: "x" }),
      (error) =>
        error instanceof WeftError && error.code === "NOT_TRUSTED" && /weft trust/.test(error.message),
    );
    assert.equal(project.text("a.txt"), undefined);
    assert.deepEqual(asked, [{
      workflow: "editing",
      stage: "change",
      step: "edit",
      tools: ["patch_project_file", "write_project_file"],
    }]);
    assert.deepEqual(await written(engine, run), []);

    // The same step as an embedded workflow ("review" here) is weft's own: no trust is asked for.
    const own = await claimFirstCall(engine, "review");
    await own.tool("write", { path: "a.txt", content: "x" });
    assert.equal(project.text("a.txt"), "x");
    assert.equal(asked.length, 1);
  } finally {
    await engine.close();
  }
});
