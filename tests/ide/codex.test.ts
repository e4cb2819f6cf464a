/**
 * The Codex presentation on `/mcp/codex`: the same business handling as `/mcp`, with Codex-shaped forms and
 * annotations.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { call, closeClient, withServedProject } from "../support/service.ts";
import { FLOW, formClient, type FormRequest, interact, PICK_PROJECT, startPick } from "./support.ts";

Deno.test("/mcp/codex shows Codex-shaped forms over the same Runs as /mcp", async () => {
  await withServedProject({ files: PICK_PROJECT }, async (served) => {
    const forms: FormRequest[] = [];
    const codex = await formClient(served, "/mcp/codex", (form) => {
      forms.push(form);
      return { action: "decline" };
    });
    const ide = await formClient(served, "/mcp", () => ({ action: "cancel" }));
    try {
      const fromCodex = await startPick(codex, "Ship the release notes");
      const fromIde = await startPick(ide, "Publish the weekly report");
      const list = async (client: typeof ide) =>
        (await call<{ runs: RunView[] }>(client, "list_runs", { flowName: FLOW })).runs;
      assert.deepEqual(await list(codex), await list(ide));
      assert.deepEqual(
        (await list(ide)).map((run) => run.runId).sort(),
        [fromCodex.runId, fromIde.runId].sort(),
      );
      const seen = await call<{ run: RunView }>(ide, "get_run", { runId: fromCodex.runId });
      assert.equal(seen.run.execution.source, "agent_ide");

      assert.equal((await interact(codex, fromIde)).interaction, "dismissed");
      const [form] = forms;
      assert.ok(form.message.startsWith("weft · pick — "), form.message);
      const format = form.requestedSchema.properties.format;
      assert.ok(format.title!.length <= 40 && format.title!.endsWith("…"), format.title);
      assert.match(
        format.description!,
        /^Which format should the weekly report be written in for the team\?/,
      );

      const { tools } = await codex.listTools();
      const tool = tools.find((candidate) => candidate.name === "interact")!;
      assert.equal(tool.annotations?.destructiveHint, false);
      assert.equal(tool.annotations?.openWorldHint, false);
      assert.ok(tool.title?.startsWith("weft · "));
    } finally {
      await closeClient(codex);
      await closeClient(ide);
    }
  });
});
