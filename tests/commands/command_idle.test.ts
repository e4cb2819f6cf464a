/**
 * A running command is work in progress: a service started with an idle exit stays while one runs, with no
 * session open, and exits once it has ended. "Stays" is shown without a fixed sleep, as the idle-exit tests
 * of the service do: a second service with the same bound and no client is started after the command began,
 * and only once it has exited (so the bound has passed) is the first one checked.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { isProcessAlive } from "../../src/weft_dir/process.ts";
import { call, closeClient, mcpClient, serve, tempProject, trustProject } from "../support/service.ts";
import { within } from "../support/deadline.ts";
import { waitForRun } from "../model/support.ts";
import { commandFiles, startRun } from "./support.ts";

const IDLE_EXIT = ["--idle-exit", "2s"];

Deno.test("a running command keeps an idle service until it has ended", async () => {
  const dir = await tempProject(
    commandFiles("gate", { run: ["sh", "-c", "while [ ! -f open ]; do sleep 0.05; done"] }),
  );
  const control = await tempProject();
  const configHome = await Deno.makeTempDir({ prefix: "weft-user-" });
  try {
    await trustProject(dir, configHome);
    const env = { XDG_CONFIG_HOME: configHome };
    const served = await serve(dir, { extraArgs: IDLE_EXIT, env });
    try {
      const client = await mcpClient(served, "/internal/mcp");
      const run = await startRun(client, "gate");
      await waitForRun(
        client,
        run.runId,
        "running its command",
        (view: RunView) => view.pendingCommand?.phase === "running",
      );
      await closeClient(client);
      const unused = await serve(control, { extraArgs: IDLE_EXIT });
      assert.equal((await within("an unused service to exit idle", unused.process.status)).code, 0);
      assert.ok(isProcessAlive(served.pid), "the running command kept the service past its idle bound");
      await Deno.writeTextFile(`${dir}/open`, "");
      const status = await within("the service to exit idle once the command ended", served.process.status);
      assert.equal(status.code, 0);
    } finally {
      await served.stop();
    }
    const again = await serve(dir, { env });
    try {
      const client = await mcpClient(again, "/internal/mcp");
      const { runs } = await call<{ runs: RunView[] }>(client, "list_runs", { flowName: "gate" });
      assert.equal(runs[0].status, "completed", "the command ran to its end before the service went");
      await closeClient(client);
    } finally {
      await again.stop();
    }
  } finally {
    for (const folder of [dir, control, configHome]) await Deno.remove(folder, { recursive: true });
  }
});
