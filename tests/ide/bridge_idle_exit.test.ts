/**
 * A service that `weft mcp` starts on the IDE's behalf exits once idle (the user configuration's
 * `service.idleExit`, 2 s here), and the IDE's next `weft mcp` starts it again and its call succeeds.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Client } from "../support/sdk_test_client.ts";
import { bridgeTransport } from "../support/bridge.ts";
import { isProcessAlive } from "../../src/weft_dir/process.ts";
import { call, tempProject } from "../support/service.ts";
import { eventually } from "../support/deadline.ts";

async function ideStatus(projectDir: string, env: Record<string, string>): Promise<number> {
  const client = new Client({ name: "ide-over-stdio", version: "0.0.0" });
  await client.connect(bridgeTransport(projectDir, env));
  try {
    return (await call<{ service: { pid: number } }>(client, "status")).service.pid;
  } finally {
    await client.close();
  }
}

Deno.test("weft mcp: the service it started exits once idle, and the IDE's next launch starts it again", async () => {
  const projectDir = await tempProject();
  const userDir = await tempProject({ "weft/weft.json": JSON.stringify({ service: { idleExit: "2s" } }) });
  const env = { XDG_CONFIG_HOME: userDir };
  const pids: number[] = [];
  try {
    pids.push(await ideStatus(projectDir, env));
    await eventually(
      "the service weft mcp started to exit once the IDE left",
      () => isProcessAlive(pids[0]) ? undefined : true,
    );
    const log = [...Deno.readDirSync(`${projectDir}/.weft/logs`)]
      .map((entry) => Deno.readTextFileSync(`${projectDir}/.weft/logs/${entry.name}`)).join("\n");
    assert.match(log, /"service\.idle_exit"/);

    pids.push(await ideStatus(projectDir, env));
    assert.notEqual(pids[1], pids[0], "a new service answered the IDE's call");
  } finally {
    for (const pid of pids) if (isProcessAlive(pid)) Deno.kill(pid, "SIGTERM");
    await eventually("the services to be gone", () => pids.some(isProcessAlive) ? undefined : true);
    await Deno.remove(projectDir, { recursive: true });
    await Deno.remove(userDir, { recursive: true });
  }
});
