/**
 * The program runs from `deno bundle`'s single file in an empty directory: nothing is read from the
 * repository at run time, the embedded workflows travel inside the file, and so do the commands' modules,
 * which the program imports only when a command runs, and what `weft init` writes.
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient, runWeft, serve, trustProject } from "../support/service.ts";
import { scriptedServer, turnOf } from "../model/scripted_server.ts";
import { probeFiles, probeTurn, waitForRun } from "../model/support.ts";
import { buildBundle } from "../build/bundle.ts";

const REPO = new URL("../../", import.meta.url).pathname;

Deno.test("the bundled program serves from an empty directory with its embedded workflows and commands", async () => {
  const buildDir = await Deno.makeTempDir({ prefix: "weft-bundle-" });
  const emptyDir = await Deno.makeTempDir({ prefix: "weft-empty-" });
  const projectDir = await Deno.makeTempDir({ prefix: "weft-project-" });
  const configHome = await Deno.makeTempDir({ prefix: "weft-user-" });
  // The model SDK is imported only when a model step runs: it must be inside the bundle all the same.
  const model = scriptedServer("openai", (request) => probeTurn(turnOf(request)));
  const files = {
    ...probeFiles(),
    "weft.json": JSON.stringify({
      models: { default: { provider: "openai-compatible", model: "m", baseURL: `${model.url}/v1` } },
    }),
  };
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${projectDir}/${path.slice(0, path.lastIndexOf("/") + 1)}`, { recursive: true });
    await Deno.writeTextFile(`${projectDir}/${path}`, text);
  }
  try {
    await buildBundle("main.ts", `${buildDir}/weft.js`);
    await Deno.copyFile(`${buildDir}/weft.js`, `${emptyDir}/weft.js`);
    // V8 holds the file's text for the life of the process, two bytes a character once one lies beyond
    // Latin-1: the build escapes them all.
    const beyond = /[\u0100-\uffff]/.exec(await Deno.readTextFile(`${emptyDir}/weft.js`));
    assert.equal(beyond, null, `a character beyond Latin-1 at ${beyond?.index}`);

    const program = ["run", "-A", "--no-config", "weft.js"];
    const started = performance.now();
    await trustProject(projectDir, configHome);
    const served = await serve(projectDir, { program, cwd: emptyDir, env: { XDG_CONFIG_HOME: configHome } });
    // Reported, not asserted: speed is measured by the bench, whose bundle row compares with a bare server.
    console.log(`bundled weft serve: spawn to ready line in ${Math.round(performance.now() - started)} ms`);
    const client = await mcpClient(served, "/mcp");
    const person = await mcpClient(served, "/internal/mcp");
    try {
      const { run } = await call<{ run: RunView }>(person, "flow", { flowName: "probe", intent: "bundled" });
      const ended = await waitForRun(person, run.runId, "completed", (r) => r.status !== "waiting");
      assert.equal(ended.status, "completed", JSON.stringify(ended));
      const { workflows } = await call<{ workflows: { name: string; available: boolean }[] }>(
        client,
        "list_workflows",
      );
      assert.ok(workflows.some((workflow) => workflow.name === "intent" && workflow.available));
      // Commands are imported when they run: a client command must find its modules in the bundle too.
      const flows = await runWeft(["flows", "--project", projectDir, "--json"], { program, cwd: emptyDir });
      assert.equal(flows.code, 0, flows.stderr);
      const listed = JSON.parse(flows.stdout).workflows as { name: string }[];
      assert.ok(listed.some((workflow) => workflow.name === "intent"));
      // `weft init` writes its template and the schema from inside the bundle, not from the repository.
      const init = await runWeft(["init", "bundled", "--project", projectDir], { program, cwd: emptyDir });
      assert.equal(init.code, 0, init.stderr);
      assert.equal(
        await Deno.readTextFile(`${projectDir}/workflows/workflow.schema.json`),
        await Deno.readTextFile(`${REPO}/schema/workflow.schema.json`),
      );
      const scaffolded = await call<{ workflows: { name: string; available: boolean }[] }>(
        client,
        "list_workflows",
      );
      assert.ok(scaffolded.workflows.some((workflow) => workflow.name === "bundled" && workflow.available));
    } finally {
      await closeClient(client);
      await closeClient(person);
      assert.equal(await served.stop(), 0);
    }
    assert.deepEqual([...Deno.readDirSync(emptyDir)].map((entry) => entry.name), ["weft.js"]);
  } finally {
    await model.close();
    for (const dir of [buildDir, emptyDir, projectDir, configHome]) {
      await Deno.remove(dir, { recursive: true });
    }
  }
});
