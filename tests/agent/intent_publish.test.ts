/**
 * The embedded `intent` workflow publishes its specification and plan into one folder per Run, driven by an
 * IDE agent through the MCP SDK's client against a real `weft serve`; `get_artifact` says where.
 */
import assert from "node:assert/strict";
import type { ArtifactView, RunView } from "../../src/engine/views.ts";
import type { Client } from "../support/sdk_test_client.ts";
import { call, closeClient, mcpClient, withServedProject } from "../support/service.ts";
import { handOff, PLAN, SPECIFICATION, type ToolCaller } from "../support/intent_agent.ts";
import { answer } from "./support.ts";

Deno.test("a completed intent Run leaves its specification and plan in docs/weft/<slug>/", async () => {
  await withServedProject({ files: { "README.md": "# demo\n" } }, async (served) => {
    const ide = await mcpClient(served, "/mcp");
    const person = await mcpClient(served, "/internal/mcp");
    const send = (client: Client): ToolCaller => async (name, args) => {
      const result = await client.callTool({ name, arguments: args }) as {
        isError?: boolean;
        structuredContent?: unknown;
      };
      return { ok: !result.isError, value: result.structuredContent };
    };
    try {
      let run = (await call<{ run: RunView }>(ide, "flow", {
        flowName: "intent",
        intent: "Add CSV export to reports",
      })).run;
      run = (await handOff(send(ide), run, {
        stage: "specification",
        document: SPECIFICATION,
        claimId: "spec",
      }) as { run: RunView }).run;
      run = await answer(person, run, { isConfirmed: true });
      run = (await handOff(send(ide), run, { stage: "plan", document: PLAN, claimId: "plan" }) as {
        run: RunView;
      }).run;
      run = await answer(person, run, { isConfirmed: true });
      assert.equal(run.status, "completed", JSON.stringify(run.lastError));

      const folder = `${served.projectDir}/docs/weft/add-csv-export-to-reports`;
      const specification = await Deno.readTextFile(`${folder}/specification.md`);
      assert.match(specification, /^---\nweft:\n {2}workflow: intent\n/);
      assert.match(specification, new RegExp(`\n {2}stage: specification\n[^]*\n {2}run: ${run.runId}\n`));
      assert.match(specification, /\n## Summary\n\n/);
      assert.match(specification, new RegExp(escape(SPECIFICATION.summary)));
      const plan = await Deno.readTextFile(`${folder}/plan.md`);
      assert.match(plan, /\n {2}stage: plan\n/);
      assert.match(plan, /\n## Tasks\n\n/);

      for (const [stageName, file] of [["specification", "specification.md"], ["plan", "plan.md"]]) {
        const { artifact } = await call<{ artifact: ArtifactView }>(person, "get_artifact", {
          flowName: "intent",
          stageName,
        });
        assert.deepEqual(artifact.publication, {
          path: `docs/weft/add-csv-export-to-reports/${file}`,
          status: "published",
        });
      }
    } finally {
      await Promise.all([closeClient(ide), closeClient(person)]);
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
