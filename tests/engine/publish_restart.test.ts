/**
 * A publication is stored as pending with the commit that decides it and removed with its outcome: one a
 * kill cut short (while rendering, or after the file was written but before its record) is finished at the
 * next start, exactly once, under the same never-overwrite rule. A template whose work has no end fails
 * with a classified error, and the commit stands.
 */

import assert from "node:assert/strict";
import type { Engine } from "../../src/engine/engine.ts";
import type { PublicationStorage, Storage } from "../../src/engine/storage.ts";
import type { RunEventView } from "../../src/engine/views.ts";
import { MemoryProject } from "../support/memory_project.ts";
import { MemoryDatabase, openMemoryStorage } from "../support/memory_storage.ts";
import { expandingFiles, NESTED_SECTIONS } from "../support/workflows.ts";
import { openEngine } from "./support.ts";

const OUTCOMES = ["artifact_published", "publish_skipped", "publish_failed"];

/** A storage over `database` whose transactions die at `method` of the publications, as a kill would. */
function dyingAt(database: MemoryDatabase, method: keyof PublicationStorage): Storage {
  const storage = openMemoryStorage(database);
  const killed = () => Promise.reject(new Error("the service was killed here"));
  return {
    ...storage,
    transaction: (work) =>
      storage.transaction((unit) =>
        work({ ...unit, publications: { ...unit.publications, [method]: killed } })
      ),
  };
}

/** Starts `expand`, which commits at once; returns its Run id. */
async function startExpand(engine: Engine): Promise<string> {
  const run = await engine.startRun({
    flowName: "expand",
    intent: "Expand",
    source: "agent_ide",
    agentExecutor: "mcp_client",
  });
  assert.equal(run.status, "completed", JSON.stringify(run.lastError));
  return run.runId;
}

async function outcomes(engine: Engine, runId: string): Promise<RunEventView[]> {
  return (await engine.getRunTimeline(runId)).filter((event) => OUTCOMES.includes(event.type));
}

Deno.test("publish restart: a file written but not recorded before a kill is published at the next start, once", async () => {
  const project = new MemoryProject(expandingFiles(3, "{{#a}}- {{.}}\n{{/a}}"));
  const database = new MemoryDatabase();
  const killed = await openEngine({ project, storage: dyingAt(database, "save") });
  let runId: string;
  try {
    runId = await startExpand(killed);
    assert.match(project.text("docs/expand.md") ?? "", /\n---\n- 0\n- 1\n- 2\n$/, "the rename happened");
    assert.deepEqual(await outcomes(killed, runId), [], "the kill came before the outcome was recorded");
    assert.equal(database.tables.pendingPublications.length, 1);
  } finally {
    await killed.close();
  }
  const written = project.text("docs/expand.md");
  for (const start of [1, 2]) {
    const engine = await openEngine({ project, database });
    try {
      const events = await outcomes(engine, runId);
      assert.deepEqual(events.map((event) => event.type), ["artifact_published"], `after start ${start}`);
      assert.equal(events[0].path, "docs/expand.md");
      assert.equal(project.text("docs/expand.md"), written);
      const { publications } = await engine.stats();
      assert.deepEqual(publications, { files: 1, changed: [] });
      assert.equal(database.tables.pendingPublications.length, 0);
    } finally {
      await engine.close();
    }
  }
});

Deno.test("publish restart: a publication a kill cut before the write is written at the next start, over no edit", async () => {
  const project = new MemoryProject(expandingFiles(2, "{{#a}}* {{.}}\n{{/a}}"));
  const database = new MemoryDatabase();
  const killed = await openEngine({ project, storage: dyingAt(database, "removePending") });
  let runId: string;
  try {
    runId = await startExpand(killed);
    assert.equal(project.text("docs/expand.md"), undefined, "nothing was written");
    assert.deepEqual(await outcomes(killed, runId), []);
  } finally {
    await killed.close();
  }
  const engine = await openEngine({ project, database });
  try {
    assert.deepEqual((await outcomes(engine, runId)).map((event) => event.type), ["artifact_published"]);
    assert.match(project.text("docs/expand.md") ?? "", /\n---\n\* 0\n\* 1\n$/);
    const artifact = await engine.getArtifact({ flowName: "expand", stageName: "collect" });
    assert.deepEqual(artifact?.publication, { path: "docs/expand.md", status: "published" });
  } finally {
    await engine.close();
  }

  // A second commit cut short the same way, then a person's edit of the file before the next start: the
  // edit is kept, and the publication is skipped with its reason.
  const again = await openEngine({ project, storage: dyingAt(database, "removePending") });
  let second: string;
  try {
    second = await startExpand(again);
  } finally {
    await again.close();
  }
  const edited = project.text("docs/expand.md")!.replace("* 1", "* 1, as a person wrote it");
  project.put("docs/expand.md", edited);
  const after = await openEngine({ project, database });
  try {
    const [skipped] = await outcomes(after, second);
    assert.equal(skipped.type, "publish_skipped");
    assert.equal(skipped.reason, "edited");
    assert.equal(project.text("docs/expand.md"), edited);
  } finally {
    await after.close();
  }
});

Deno.test("publish: a template whose work has no end fails at its bound, and the commit stands", async () => {
  const project = new MemoryProject(expandingFiles(60, NESTED_SECTIONS));
  const engine = await openEngine({ project });
  try {
    const runId = await startExpand(engine);
    const [failed] = await outcomes(engine, runId);
    assert.equal(failed.type, "publish_failed");
    const error = failed.error as { code: string; message: string; retryable: boolean };
    assert.equal(error.code, "PUBLISH_FAILED");
    assert.match(
      error.message,
      /^the publish template of stage "collect" takes more than \d+ steps to render \(the bound of one render\)/,
    );
    assert.equal(project.text("docs/expand.md"), undefined);
    const artifact = await engine.getArtifact({ flowName: "expand", stageName: "collect" });
    assert.equal(artifact?.revision, 1, "the Artifact is committed");
    assert.equal(artifact?.publication?.status, "failed");
  } finally {
    await engine.close();
  }
});
