/**
 * Workflow versions in the engine and the store: what a version covers, content stored once, Runs of an
 * older weft (stored without a version) pinned when the store opens, and definitions dropped once no Run
 * names them.
 */
import assert from "node:assert/strict";
import { Database } from "../../src/store/database.ts";
import { loadWorkflow } from "../../src/engine/workflow/loader.ts";
import type { WorkflowSource } from "../../src/engine/workflow/source.ts";
import { embeddedSource } from "../../src/workflows/embedded.ts";
import { openEngineOnDisk } from "./support.ts";
import { REVIEW_ANSWER, reviewManifest } from "../support/workflows.ts";
import type { Json } from "../support/json.ts";

const AGENT_STEP = {
  kind: "agent",
  agentId: "writer",
  instructions: "writer.md",
  skills: ["style"],
  output: { schema: { type: "object", required: ["outcome"], properties: { outcome: { enum: ["done"] } } } },
  routes: { done: "ask" },
};

function versionOf(source: WorkflowSource): string {
  const entry = loadWorkflow(source);
  assert.ok(entry.ok, entry.ok ? "" : entry.reason);
  return entry.workflow.content.version;
}

/** The review workflow with an agent step first, as an in-memory source with its declared files. */
function agentSource(files: Record<string, string>, manifest: Json = reviewManifest()): WorkflowSource {
  const value = structuredClone(manifest);
  value.stages.collect.entryStep = "draft";
  value.stages.collect.steps.draft = AGENT_STEP;
  return embeddedSource("review", value, files);
}

const FILES = {
  "writer.md": "# Writer",
  "skills/style/SKILL.md": "---\nname: style\ndescription: House style\n---\n# Style",
  "skills/style/guide.md": "be brief",
};

Deno.test("a version covers the manifest and the declared files, whatever their key or file order", () => {
  const base = versionOf(agentSource(FILES));
  assert.match(base, /^[0-9a-f]{64}$/);
  const reordered = Object.fromEntries(Object.entries(reviewManifest()).reverse());
  const filesReordered = Object.fromEntries(Object.entries(FILES).reverse());
  assert.equal(versionOf(agentSource(filesReordered, reordered)), base, "key and file order do not count");
  assert.equal(
    versionOf(agentSource({ ...FILES, "README.md": "notes" })),
    base,
    "undeclared files do not count",
  );
  for (const path of Object.keys(FILES)) {
    const edited = { ...FILES, [path]: FILES[path as keyof typeof FILES] + "\n" };
    assert.notEqual(versionOf(agentSource(edited)), base, `${path} counts`);
  }
  assert.notEqual(
    versionOf(agentSource(FILES, reviewManifest({ title: "Other" }))),
    base,
    "the manifest counts",
  );
});

Deno.test("Runs of an older weft are pinned when the store opens, then no edit reaches them", async () => {
  const dir = Deno.makeTempDirSync();
  const databasePath = `${dir}/.weft/weft.db`;
  try {
    const first = await openEngineOnDisk({ projectDir: dir, databasePath });
    const waiting = await first.startRun({
      flowName: "review",
      intent: "older",
      source: "cli",
      agentExecutor: "service",
    });
    const second = await first.startRun({
      flowName: "review",
      intent: "same content",
      source: "cli",
      agentExecutor: "service",
    });
    assert.equal(second.version, waiting.version);
    first.close();

    const db = Database.open(databasePath);
    const count = (table: string) => Number(db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)!.n);
    assert.equal(count("definitions"), 1, "two Runs of one version store it once");
    // What an older weft left: Runs without a version, and no stored definitions.
    db.run("UPDATE runs SET version = NULL, body = json_remove(body, '$.version')");
    db.run("DELETE FROM definition_files");
    db.run("DELETE FROM definitions");
    db.close();

    const reopened = await openEngineOnDisk({ projectDir: dir, databasePath });
    const pinned = await reopened.getRun(waiting.runId);
    assert.equal(pinned.version, waiting.version, "pinned to the definition current at the upgrade");
    const event = (await reopened.getRunTimeline(waiting.runId)).find((e) => e.type === "version_pinned");
    assert.equal(event?.version, waiting.version);
    reopened.close();

    // From then on an edit no longer reaches it: the renamed step is the new version's only.
    const renamed = structuredClone(reviewManifest()) as Json;
    const stage = renamed.stages.collect;
    stage.steps.questions = stage.steps.ask;
    delete stage.steps.ask;
    stage.entryStep = "questions";
    stage.steps.check.routes.invalid = "questions";
    stage.steps.confirm.routes.revise = "questions";
    const edited = await openEngineOnDisk({ projectDir: dir, databasePath, manifest: renamed });
    let run = await edited.answerAsk({
      runId: waiting.runId,
      actionId: waiting.pendingAction!.id,
      answer: REVIEW_ANSWER,
      source: "cli",
    });
    run = await edited.answerAsk({
      runId: run.runId,
      actionId: run.pendingAction!.id,
      answer: { isConfirmed: true },
      source: "cli",
    });
    assert.equal(run.status, "completed");
    edited.close();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a definition is kept while a Run names it, and dropped at the next start once none does", async () => {
  const dir = Deno.makeTempDirSync();
  const databasePath = `${dir}/.weft/weft.db`;
  try {
    const definitions = () => {
      const db = Database.open(databasePath);
      try {
        return db.all<{ version: string }>("SELECT version FROM definitions").map((row) =>
          row.version.slice(0, 12)
        );
      } finally {
        db.close();
      }
    };
    const first = await openEngineOnDisk({ projectDir: dir, databasePath });
    const run = await first.startRun({
      flowName: "review",
      intent: "move me",
      source: "cli",
      agentExecutor: "service",
    });
    first.close();
    const next = await openEngineOnDisk({
      projectDir: dir,
      databasePath,
      manifest: reviewManifest({ title: "Review, v2" }),
    });
    const moved = await next.moveRun(run.runId, "cli");
    assert.notEqual(moved.version, run.version);
    assert.deepEqual(definitions().sort(), [run.version, moved.version].sort(), "kept until the next start");
    next.close();
    (await openEngineOnDisk({
      projectDir: dir,
      databasePath,
      manifest: reviewManifest({ title: "Review, v3" }),
    }))
      .close();
    assert.deepEqual(
      definitions(),
      [moved.version],
      "the version no Run names is dropped; v3 was never used",
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("identical file content is stored once, however many versions declare it", async () => {
  const dir = Deno.makeTempDirSync();
  const databasePath = `${dir}/.weft/weft.db`;
  const write = (files: Record<string, string>, title: string) => {
    const manifest = structuredClone(reviewManifest({ name: "drafts", title })) as Json;
    manifest.stages.collect.entryStep = "draft";
    manifest.stages.collect.steps.draft = AGENT_STEP;
    for (const [path, text] of Object.entries({ "workflow.json": JSON.stringify(manifest), ...files })) {
      const full = `${dir}/workflows/drafts/${path}`;
      Deno.mkdirSync(full.slice(0, full.lastIndexOf("/")), { recursive: true });
      Deno.writeTextFileSync(full, text);
    }
  };
  try {
    write(FILES, "Review one");
    const engine = await openEngineOnDisk({ projectDir: dir, databasePath });
    const first = await engine.startRun({
      flowName: "drafts",
      intent: "one",
      source: "agent_ide",
      agentExecutor: "mcp_client",
    });
    write({ "writer.md": "# Writer, edited" }, "Review two");
    const second = await engine.startRun({
      flowName: "drafts",
      intent: "two",
      source: "agent_ide",
      agentExecutor: "mcp_client",
    });
    assert.notEqual(second.version, first.version);
    await engine.close();
    const db = Database.open(databasePath);
    try {
      const count = (sql: string) => Number(db.get<{ n: number }>(sql)!.n);
      assert.equal(count("SELECT COUNT(*) AS n FROM definitions"), 2);
      assert.equal(
        count("SELECT COUNT(*) AS n FROM definition_files"),
        6,
        "three declared files per version",
      );
      assert.equal(count("SELECT COUNT(*) AS n FROM blobs"), 4, "SKILL.md and the asset are stored once");
    } finally {
      db.close();
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
