/**
 * `list_artifacts` over HTTP across 500 stored Artifacts: every one exactly once, metadata only, and a cursor
 * that refuses to be used with other filters.
 */

import assert from "node:assert/strict";
import { call, callError, closeClient, mcpClient, withServedProject } from "../support/service.ts";
import { Database } from "../../src/store/database.ts";
import type { ArtifactView } from "../../src/engine/views.ts";
import { seedOddEvenArtifacts } from "../support/artifacts.ts";

type Page = { artifacts: ArtifactView[]; nextCursor?: string };

Deno.test("list_artifacts pages across 500 Artifacts; a cursor bound to other filters is refused", async () => {
  // Seeding through the store before the service starts: 500 full Runs over MCP would only slow the test.
  const seed = async (dir: string) => {
    await Deno.mkdir(`${dir}/.weft`, { mode: 0o700 });
    const db = Database.open(`${dir}/.weft/weft.db`);
    await seedOddEvenArtifacts(db, 500);
    db.close();
  };
  await withServedProject({ setup: seed }, async (served) => {
    const client = await mcpClient(served, "/mcp");
    try {
      const seen = new Set<string>();
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page: Page = await call<Page>(client, "list_artifacts", {
          limit: 64,
          ...(cursor ? { cursor } : {}),
        });
        for (const artifact of page.artifacts) {
          assert.equal(artifact.data, undefined, "a list holds metadata only");
          assert.ok(!seen.has(artifact.artifactId), "no Artifact appears twice");
          seen.add(artifact.artifactId);
        }
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      assert.equal(seen.size, 500);
      assert.equal(pages, 8);

      const odd = await call<Page>(client, "list_artifacts", { flowName: "odd", limit: 100 });
      assert.ok(odd.artifacts.every((artifact) => artifact.flowName === "odd"));
      const rest = await call<Page>(client, "list_artifacts", {
        flowName: "odd",
        cursor: odd.nextCursor,
        limit: 200,
      });
      assert.equal(rest.artifacts.length, 150);
      for (const other of [{}, { flowName: "even" }, { flowName: "odd", stageName: "stage_1" }]) {
        const error = await callError(client, "list_artifacts", { ...other, cursor: odd.nextCursor });
        assert.equal(error.code, "INVALID_REQUEST");
      }
    } finally {
      await closeClient(client);
    }
  });
});
