/**
 * A service a client starts from a checkout runs with `SERVICE_V8_FLAGS` (a young generation kept small, which
 * bounds what a busy service holds) and works as any other: it answers, and stops when asked.
 */

import assert from "node:assert/strict";
import { SERVICE_V8_FLAGS } from "../../src/client/self_command.ts";
import { isProcessAlive } from "../../src/weft_dir/process.ts";
import { runWeft, tempProject } from "../support/service.ts";

/** The command line of process `pid`, word by word (Linux). */
async function commandLine(pid: number): Promise<string[]> {
  const raw = await Deno.readTextFile(`/proc/${pid}/cmdline`);
  return raw.split("\0").filter((word) => word !== "");
}

Deno.test("a started service runs `deno run` with the service's V8 flags and answers", async () => {
  const dir = await tempProject();
  let pid: number | undefined;
  try {
    const started = await runWeft(["start", "--project", dir, "--json"]);
    assert.equal(started.code, 0, started.stderr);
    pid = JSON.parse(started.stdout).pid as number;
    const words = await commandLine(pid);
    const serveAt = words.indexOf("serve");
    assert.ok(serveAt > 0, words.join(" "));
    assert.ok(
      words.slice(0, serveAt).includes(SERVICE_V8_FLAGS),
      `deno's own flags carry ${SERVICE_V8_FLAGS}: ${words.join(" ")}`,
    );
    assert.ok(words.indexOf(SERVICE_V8_FLAGS) < words.findIndex((word) => word.endsWith("main.ts")));

    const status = await runWeft(["status", "--project", dir, "--json"]);
    assert.equal(status.code, 0, status.stderr);
    assert.equal(JSON.parse(status.stdout).state, "running");

    const stopped = await runWeft(["stop", "--project", dir, "--json"]);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.ok(!isProcessAlive(pid), "stop waits until the process is gone");
  } finally {
    if (pid !== undefined && isProcessAlive(pid)) Deno.kill(pid, "SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
});
