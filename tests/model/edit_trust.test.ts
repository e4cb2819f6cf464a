/**
 * The person's trust of a project workflow's edit tools, through the real check the service wires in (not a
 * stand-in): a step writes the project's files only while the person trusts the project's workflows as they
 * are now AND those workflows declare that very step with those very tools. A Run started on a version the
 * person never trusted keeps its version; trusting the workflows as they became later lets it write nothing.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient, serve, tempProject, trustProject } from "../support/service.ts";
import { editingFiles } from "../support/workflows.ts";
import { claim, toolError, useTool } from "../agent/support.ts";

const WORKFLOW = "workflows/editing/workflow.json";

Deno.test("a project workflow's step writes only while the person trusts the workflows as they are and those declare its edit tools", async () => {
  const projectDir = await tempProject(editingFiles());
  const configHome = await Deno.makeTempDir({ prefix: "weft-user-" });
  const served = await serve(projectDir, { env: { XDG_CONFIG_HOME: configHome } });
  const ide = await mcpClient(served, "/mcp");
  try {
    await trustProject(projectDir, configHome);
    const run =
      (await call<{ run: RunView }>(ide, "flow", { flowName: "editing", intent: "change a file" })).run;
    const claimed = await claim(ide, run, "ide-agent");
    // Trusted as it is: the step writes.
    assert.deepEqual(await useTool(ide, claimed, "w1", "write", { path: "a.txt", content: "a\n" }), {
      path: "a.txt",
      status: "created",
      size: 2,
    });

    // The repository now declares the step with `patch` alone, and the person trusts the workflows as they
    // are now. The Run keeps the version it started on, whose step also declares `write`: the person never
    // trusted that step as it is there.
    const manifest = JSON.parse(Deno.readTextFileSync(`${projectDir}/${WORKFLOW}`));
    const edit = manifest.stages.change.steps.edit;
    edit.tools = edit.tools.filter((tool: { id: string }) => tool.id !== "write");
    Deno.writeTextFileSync(`${projectDir}/${WORKFLOW}`, JSON.stringify(manifest, null, 2));
    await trustProject(projectDir, configHome);
    const refused = await toolError(ide, claimed, "w2", "write", { path: "b.txt", content: "b\n" });
    assert.equal(refused.code, "NOT_TRUSTED");
    assert.match(
      refused.message,
      /the step change\/edit of the project's workflow "editing" would change your files, and you have not trusted/,
    );
    assert.throws(() => Deno.statSync(`${projectDir}/b.txt`), Deno.errors.NotFound);
    assert.equal(Deno.readTextFileSync(`${projectDir}/a.txt`), "a\n");
  } finally {
    await closeClient(ide);
    await served.stop();
    await Deno.remove(projectDir, { recursive: true });
    await Deno.remove(configHome, { recursive: true });
  }
});
