/**
 * `weft flow deliver` at a terminal with the service's model: a scripted model implements each task of a
 * confirmed plan by writing its file through the edit tools, the service runs the project's verify command,
 * and the person confirms each task's changes at the terminal; the Run completes with every task done.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient, serve, tempProject, trustProject } from "../support/service.ts";
import { Terminal } from "../cli/support.ts";
import { confirmedPlanOverMcp } from "../support/deliver_mcp.ts";
import { conversationText, scriptedServer, turnOf } from "./scripted_server.ts";
import { timelineOf } from "./support.ts";

Deno.test("deliver from the CLI: the service's model writes each task's file through the edit tools, verify passes, the person confirms", async () => {
  let calls = 0;
  const model = scriptedServer("openai", (request) => {
    if (turnOf(request) === 0) {
      calls++;
      // The opening message names the task the call works on (as JSON text, its quotes escaped).
      const told = JSON.stringify(`works on item "T${calls}" (Task T${calls})`).slice(1, -1);
      assert.ok(conversationText(request).includes(told), conversationText(request));
      return {
        calls: [{
          name: "write",
          input: { path: `src/task${calls}.ts`, content: `export const n = ${calls};\n` },
        }],
      };
    }
    return {
      calls: [{ name: "complete_agent_call", input: { outcome: "implemented", summary: "wrote it" } }],
    };
  });
  const projectDir = await tempProject({
    "README.md": "# demo\n",
    "weft.json": JSON.stringify({
      models: {
        default: { provider: "openai-compatible", model: "scripted-gpt", baseURL: `${model.url}/v1` },
      },
      commands: { verify: ["sh", "-c", "ls src/*.ts"] },
    }),
  });
  const userDir = await Deno.makeTempDir({ prefix: "weft-user-" });
  await trustProject(projectDir, userDir);
  const served = await serve(projectDir, { env: { XDG_CONFIG_HOME: userDir } });
  const ide = await mcpClient(served, "/mcp");
  const person = await mcpClient(served, "/internal/mcp");
  let terminal: Terminal | undefined;
  try {
    const intent = await confirmedPlanOverMcp({ ide, person });
    terminal = new Terminal(["flow", "deliver", "--intent", intent.runId], {
      cwd: projectDir,
      env: { NO_COLOR: "1", XDG_CONFIG_HOME: userDir },
    });
    let seen = 0;
    for (let task = 1; task <= 3; task++) {
      seen = await terminal.waitFor(`created src/task${task}.ts`, seen);
      seen = await terminal.waitFor("confirm (y) or revise (r)? ", seen);
      await terminal.type("y");
    }
    await terminal.waitFor("completed", seen);
    assert.equal(await terminal.exit(), 0);
    for (let task = 1; task <= 3; task++) {
      assert.equal(Deno.readTextFileSync(`${projectDir}/src/task${task}.ts`), `export const n = ${task};\n`);
    }
    const { runs } = await call<{ runs: RunView[] }>(person, "list_runs", { flowName: "deliver" });
    const run = runs[0];
    assert.equal(run.status, "completed");
    assert.deepEqual(run.list?.items.map((item) => [item.id, item.status, item.verify?.passed]), [
      ["T1", "done", true],
      ["T2", "done", true],
      ["T3", "done", true],
    ]);
    const writes = (await timelineOf(person, run.runId)).filter((event) =>
      event.type === "project_file_written"
    );
    assert.deepEqual(writes.map((event) => [event.path, event.status]), [
      ["src/task1.ts", "created"],
      ["src/task2.ts", "created"],
      ["src/task3.ts", "created"],
    ]);
  } finally {
    await terminal?.kill();
    await closeClient(ide);
    await closeClient(person);
    await served.stop();
    await model.close();
    await Deno.remove(projectDir, { recursive: true });
    await Deno.remove(userDir, { recursive: true });
  }
});
