/**
 * The program runs from `deno bundle`'s single file in an empty directory: nothing is read from the
 * repository at run time, the embedded workflows travel inside the file, and so do the commands' modules,
 * which the program imports only when a command runs.
 */

import assert from "node:assert/strict";
import { call, closeClient, mcpClient, type ServedProject } from "../support/service.ts";

const REPO = new URL("../../", import.meta.url).pathname;

Deno.test("the bundled program serves from an empty directory with its embedded workflows and commands", async () => {
  const buildDir = await Deno.makeTempDir({ prefix: "weft-bundle-" });
  const emptyDir = await Deno.makeTempDir({ prefix: "weft-empty-" });
  const projectDir = await Deno.makeTempDir({ prefix: "weft-project-" });
  try {
    const bundled = await new Deno.Command(Deno.execPath(), {
      args: ["bundle", "--quiet", "--platform", "deno", "--output", `${buildDir}/weft.js`, "main.ts"],
      cwd: REPO,
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(bundled.code, 0, new TextDecoder().decode(bundled.stderr));
    await Deno.copyFile(`${buildDir}/weft.js`, `${emptyDir}/weft.js`);

    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-config", "weft.js", "serve", "--project", projectDir, "--port", "0"],
      cwd: emptyDir,
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let line = "";
    while (!line.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      line += value;
    }
    const ready = JSON.parse(line);
    const connection = JSON.parse(await Deno.readTextFile(`${projectDir}/.weft/connection.json`));
    const served = { ...ready, connection } as ServedProject;
    const client = await mcpClient(served, "/mcp");
    try {
      const { workflows } = await call<{ workflows: { name: string; available: boolean }[] }>(
        client,
        "list_workflows",
      );
      assert.ok(workflows.some((workflow) => workflow.name === "intent" && workflow.available));
      // Commands are imported when they run: a client command must find its modules in the bundle too.
      const flows = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--no-config", "weft.js", "flows", "--project", projectDir, "--json"],
        cwd: emptyDir,
        stdin: "null",
      }).output();
      assert.equal(flows.code, 0, new TextDecoder().decode(flows.stderr));
      const listed = JSON.parse(new TextDecoder().decode(flows.stdout)).workflows as { name: string }[];
      assert.ok(listed.some((workflow) => workflow.name === "intent"));
    } finally {
      await closeClient(client);
      child.kill("SIGTERM");
      assert.equal((await child.status).code, 0);
      await reader.cancel();
    }
    assert.deepEqual([...Deno.readDirSync(emptyDir)].map((entry) => entry.name), ["weft.js"]);
  } finally {
    for (const dir of [buildDir, emptyDir, projectDir]) await Deno.remove(dir, { recursive: true });
  }
});
