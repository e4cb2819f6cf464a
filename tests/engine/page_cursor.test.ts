import assert from "node:assert/strict";
import { ArtifactStore } from "../../src/store/artifact_store.ts";
import { Database } from "../../src/store/database.ts";

Deno.test("a page cursor carries any filter text, including names outside Latin-1, and only that filter", async () => {
  const db = Database.open(":memory:");
  const store = new ArtifactStore(db);
  const stage = "規格 ✓";
  for (const flowName of ["a", "b", "c"]) {
    await store.commit({
      artifactId: `art_${flowName}`,
      recordId: `rec_${flowName}`,
      runId: "run_x",
      flowName,
      stageName: stage,
      data: {},
      answers: [],
      at: new Date().toISOString(),
    });
  }
  const first = await store.list({ stageName: stage, limit: 2 });
  assert.deepEqual(first.artifacts.map((a) => a.flowName), ["c", "b"]);
  assert.match(first.nextCursor!, /^[A-Za-z0-9_-]+$/, "base64url without padding");
  const second = await store.list({ stageName: stage, limit: 2, cursor: first.nextCursor });
  assert.deepEqual(second.artifacts.map((a) => a.flowName), ["a"]);
  assert.equal(second.nextCursor, undefined);
  await assert.rejects(async () => await store.list({ stageName: "other", cursor: first.nextCursor }), {
    code: "INVALID_REQUEST",
  });
  await assert.rejects(async () => await store.list({ stageName: stage, cursor: "not$base64" }), {
    code: "INVALID_REQUEST",
  });
  db.close();
});
