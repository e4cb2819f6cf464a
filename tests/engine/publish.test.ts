/**
 * Publishing: a stage that declares `publish` writes each commit to its project file with frontmatter, never
 * over a person's edit or a file weft did not write, never outside the project or through a link; a failing
 * template loses nothing.
 */

import assert from "node:assert/strict";
import type { Engine } from "../../src/engine/engine.ts";
import type { RunEventView } from "../../src/engine/views.ts";
import { configuredPublishFolder } from "../../src/model/config.ts";
import { publishedNotes, workflowFiles } from "../support/workflows.ts";
import { MemoryProject } from "../support/memory_project.ts";
import { MemoryDatabase } from "../support/memory_storage.ts";
import { openEngine, openEngineOnDisk } from "./support.ts";

/** A project with the workflow `manifest` and `files`, in memory. */
function project(manifest: unknown, files: Record<string, string> = {}): MemoryProject {
  return new MemoryProject({ ...workflowFiles(manifest as { name: string }), ...files });
}

/** The same project in a temporary folder, for the tests whose subject is the disk. */
async function projectOnDisk(manifest: unknown): Promise<string> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "weft-publish-" }));
  for (const [path, text] of Object.entries(workflowFiles(manifest as { name: string }))) {
    await Deno.mkdir(`${dir}/${path.split("/").slice(0, -1).join("/")}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
  return dir;
}

/** Drives one Run of `notes` to its commit with `title`; returns its timeline's publication events. */
async function commitOnce(engine: Engine, title: string, intent = "Release notes"): Promise<RunEventView[]> {
  let run = await engine.startRun({
    flowName: "notes",
    intent,
    source: "agent_ide",
    agentExecutor: "mcp_client",
  });
  const answer = [{ questionId: "title", isSkipped: false, answer: title }];
  run = await engine.answerAsk({
    runId: run.runId,
    actionId: run.pendingAction!.id,
    answer,
    source: "agent_ide",
  });
  run = await engine.answerAsk({
    runId: run.runId,
    actionId: run.pendingAction!.id,
    answer: { isConfirmed: true },
    source: "agent_ide",
  });
  assert.equal(run.status, "completed", JSON.stringify(run.lastError));
  return (await engine.getRunTimeline(run.runId)).filter((event) =>
    ["artifact_published", "publish_skipped", "publish_failed"].includes(event.type)
  );
}

Deno.test("publish: each commit is written in turn with frontmatter; a hand edit is left alone and reported", async () => {
  const files = project(publishedNotes({ path: "docs/{flowName}/{stageName}.md" }));
  const engine = await openEngine({ project: files });
  const file = "docs/notes/collect.md";
  try {
    const [first] = await commitOnce(engine, "First title");
    assert.equal(first.type, "artifact_published");
    assert.equal(first.path, "docs/notes/collect.md");
    const one = files.text(file)!;
    assert.match(one, /^---\nweft:\n {2}workflow: notes\n {2}version: [0-9a-f]{64}\n {2}stage: collect\n/);
    assert.match(one, new RegExp(`  artifact: ${first.artifactId}\n  revision: 1\n  run: run_`));
    assert.match(one, / {2}digest: sha256:[0-9a-f]{64}\n---\n/);
    assert.match(one, /\*\*Title:\*\* First title/);

    const [second] = await commitOnce(engine, "Second title");
    assert.equal(second.type, "artifact_published");
    const two = files.text(file)!;
    assert.match(two, / {2}revision: 2\n/);
    assert.match(two, /Second title/);
    assert.doesNotMatch(two, /First title/);

    const edited = two.replace("Second title", "Second title, as a person wrote it");
    files.put(file, edited);
    const [third] = await commitOnce(engine, "Third title");
    assert.equal(third.type, "publish_skipped");
    assert.equal(third.reason, "edited");
    assert.match(String(third.message), /docs\/notes\/collect\.md was changed since weft wrote revision 2/);
    assert.equal(files.text(file), edited, "the person's edit is kept byte for byte");
    const artifact = await engine.getArtifact({ flowName: "notes", stageName: "collect" });
    assert.equal(artifact?.revision, 3, "the third revision is committed all the same");
  } finally {
    await engine.close();
  }
});

Deno.test("publish: an existing file weft did not write is left byte for byte", async () => {
  const readme = "# My project\n\nHand written.\n";
  const files = project(publishedNotes({ path: "README.md" }), { "README.md": readme });
  const engine = await openEngine({ project: files });
  try {
    const [skipped] = await commitOnce(engine, "A title");
    assert.equal(skipped.type, "publish_skipped");
    assert.equal(skipped.reason, "not_written_by_weft");
    assert.equal(files.text("README.md"), readme);
  } finally {
    await engine.close();
  }
});

Deno.test("publish: a path leaving the project, into .git/.weft/.env*, or through a linked folder is refused at load", async () => {
  const cases: [string, RegExp][] = [
    ["../escape.md", /must not contain `\.\.`/],
    ["docs/../../escape.md", /must not contain `\.\.`/],
    ["/tmp/escape.md", /must be relative to the project, not absolute/],
    [".git/hooks/x.md", /must not lead into \.git, \.weft or \.env\*/],
    ["docs/.ENV/x.md", /must not lead into \.git, \.weft or \.env\*/],
    [".weft/x.md", /must not lead into \.git/],
    ["linked/{slug}.md", /the folder linked is a symbolic link; weft does not follow links/],
    ["docs/{nope}.md", /unknown placeholder \{nope\}/],
    ["docs/notes.txt", /must name a Markdown file/],
  ];
  for (const [path, reason] of cases) {
    const files = project(publishedNotes({ path }));
    files.link("linked", "/tmp");
    const engine = await openEngine({ project: files });
    try {
      const view = (await engine.listWorkflows("mcp_client")).find((w) => w.name === "notes")!;
      assert.equal(view.available, false, path);
      assert.match(
        view.reason ?? "",
        /workflows\/notes\/workflow\.json#\/stages\/collect\/publish\/path: /,
      );
      assert.match(view.reason ?? "", reason, path);
    } finally {
      await engine.close();
    }
  }
});

Deno.test("publish: a folder turned into a link after load is not written through; the commit stands", async () => {
  const outside = await Deno.realPath(await Deno.makeTempDir({ prefix: "weft-outside-" }));
  const dir = await projectOnDisk(publishedNotes({ path: "out/{slug}/notes.md" }));
  const engine = await openEngineOnDisk({ projectDir: dir });
  try {
    await Deno.mkdir(`${dir}/out`);
    await Deno.symlink(outside, `${dir}/out/release-notes`);
    const [failed] = await commitOnce(engine, "A title");
    assert.equal(failed.type, "publish_failed");
    assert.equal((failed.error as { code: string }).code, "PUBLISH_FAILED");
    assert.match((failed.error as { message: string }).message, /out\/release-notes is a symbolic link/);
    assert.deepEqual([...Deno.readDirSync(outside)], [], "nothing was written outside the project");
    assert.equal((await engine.getArtifact({ flowName: "notes", stageName: "collect" }))?.revision, 1);
  } finally {
    await engine.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("publish: a template renders the data; one that fails is a classified error that loses nothing", async () => {
  const template = "# {{#answers}}{{answer}}{{/answers}}\n\nWritten by a template.\n";
  const files = project(publishedNotes({ path: "notes.md", template: "notes.mustache" }), {
    "workflows/notes/notes.mustache": template,
  });
  // One store across both engines, as across two starts of the service.
  const database = new MemoryDatabase();
  const engine = await openEngine({ project: files, database });
  try {
    const [published] = await commitOnce(engine, "Templated");
    assert.equal(published.type, "artifact_published");
    assert.match(files.text("notes.md")!, /\n---\n# Templated\n\nWritten by a template\.\n$/);
  } finally {
    await engine.close();
  }
  // A template that repeats a long answer expands past the bound of one document.
  files.put("workflows/notes/notes.mustache", "{{#answers}}{{answer}}{{/answers}}".repeat(120));
  const before = files.text("notes.md");
  const again = await openEngine({ project: files, database });
  try {
    const [failed] = await commitOnce(again, "y".repeat(10_000));
    assert.equal(failed.type, "publish_failed");
    const error = failed.error as { code: string; message: string; retryable: boolean };
    assert.equal(error.code, "PUBLISH_FAILED");
    assert.match(
      error.message,
      /^the publish template of stage "collect" renders more than 1048576 bytes \(the bound of a published document\)$/,
    );
    const artifact = await again.getArtifact({ flowName: "notes", stageName: "collect" });
    assert.equal(artifact?.revision, 2, "the Artifact is committed");
    assert.equal(files.text("notes.md"), before, "the file keeps the last revision written");
  } finally {
    await again.close();
  }
});

Deno.test("publish: a template that does not parse is refused at load, naming the file and pointer", async () => {
  const files = project(publishedNotes({ path: "notes.md", template: "notes.mustache" }), {
    "workflows/notes/notes.mustache": "{{#answers}}never closed\n",
  });
  const engine = await openEngine({ project: files });
  try {
    const view = (await engine.listWorkflows("mcp_client")).find((w) => w.name === "notes")!;
    assert.equal(view.available, false);
    assert.match(
      view.reason ?? "",
      /workflows\/notes\/workflow\.json#\/stages\/collect\/publish\/template: workflows\/notes\/notes\.mustache: Unclosed section "answers"/,
    );
  } finally {
    await engine.close();
  }
});

Deno.test("publish: {publishFolder} is docs/weft unless weft.json's publishFolder says otherwise", async () => {
  const dir = await Deno.makeTempDir({ prefix: "weft-publish-" });
  try {
    await Deno.writeTextFile(`${dir}/weft.json`, JSON.stringify({ publishFolder: "handbook/decisions" }));
    const folder = configuredPublishFolder(dir);
    assert.equal(folder, "handbook/decisions");
    for (const refused of ["../out", "/abs", "a/../b", ""]) {
      await Deno.writeTextFile(`${dir}/weft.json`, JSON.stringify({ publishFolder: refused }));
      assert.equal(configuredPublishFolder(dir), undefined, refused);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const files = project(publishedNotes({ path: "{publishFolder}/{slug}/notes.md" }));
  const moved = await openEngine({ project: files, publishFolder: "handbook/decisions" });
  try {
    const [published] = await commitOnce(moved, "A title", "Ship the 2.0 release!");
    assert.equal(published.path, "handbook/decisions/ship-the-2-0-release/notes.md");
  } finally {
    await moved.close();
  }
  const plain = await openEngine({ project: files });
  try {
    const [published] = await commitOnce(plain, "A title", "Ship the 2.0 release!");
    assert.equal(published.path, "docs/weft/ship-the-2-0-release/notes.md");
    assert.ok(files.text("docs/weft/ship-the-2-0-release/notes.md"));
  } finally {
    await plain.close();
  }
});
