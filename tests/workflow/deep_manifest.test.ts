/**
 * One workflow nested too deeply for weft's recursive code is unavailable with its reason, and only it: every
 * endpoint and `weft flows` list the others as before.
 */

import assert from "node:assert/strict";
import { call, closeClient, mcpClient, runWeft, withServedProject } from "../support/service.ts";
import { reviewManifest, workflowFiles } from "../support/workflows.ts";
import type { WorkflowView } from "../../src/engine/views.ts";

/** The review workflow, with an array nested `depth` deep in its stage's initial state (an object). */
function deepFlow(depth: number): Record<string, string> {
  const manifest = reviewManifest({ name: "deep" });
  const text = JSON.stringify(manifest, null, 2).replace(
    '"initial": {}',
    `"initial": { "deep": ${"[".repeat(depth)}1${"]".repeat(depth)} }`,
  );
  return { "workflows/deep/workflow.json": text };
}

const REASON =
  "workflows/deep/workflow.json#/stages/collect/state/initial/deep/0/…: nested deeper than 512 " +
  "levels of arrays and objects, weft's bound for any JSON";

Deno.test("deep manifest: a workflow nested 200,000 deep is unavailable and the others list normally", async () => {
  const files = { ...workflowFiles(reviewManifest()), ...deepFlow(200_000) };
  await withServedProject({ files }, async (served) => {
    for (const path of ["/mcp", "/mcp/codex", "/internal/mcp", "/internal/mcp/studio"]) {
      const client = await mcpClient(served, path);
      try {
        const { workflows } = await call<{ workflows: WorkflowView[] }>(client, "list_workflows");
        const byName = new Map(workflows.map((workflow) => [workflow.name, workflow]));
        assert.equal(byName.get("review")?.available, true, path);
        assert.equal(byName.get("intent")?.available, true, path);
        assert.equal(byName.get("deep")?.available, false, path);
        assert.equal(byName.get("deep")?.reason, REASON, path);
        const { service } = await call<{ service: { counts: { workflows: unknown } } }>(client, "status");
        assert.deepEqual(service.counts.workflows, { available: workflows.length - 1, unavailable: 1 });
      } finally {
        await closeClient(client);
      }
    }
    const listed = await runWeft(["flows"], { cwd: served.projectDir });
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /review/);
    assert.match(listed.stdout, /deep: unavailable/);
    assert.ok(listed.stdout.includes("nested deeper than 512 levels"), listed.stdout);
  });
});

Deno.test("deep manifest: nesting up to the bound still loads", async () => {
  // 512 levels in all: the manifest, stages, collect, state, initial and 507 arrays in it.
  await withServedProject({ files: deepFlow(507) }, async (served) => {
    const client = await mcpClient(served, "/internal/mcp");
    try {
      const { workflows } = await call<{ workflows: WorkflowView[] }>(client, "list_workflows");
      const deep = workflows.find((workflow) => workflow.name === "deep");
      assert.equal(deep?.available, true, deep?.reason);
    } finally {
      await closeClient(client);
    }
  });
});
