/**
 * The service's life: the ready line, files and modes in `.weft/`, restart keeping port and tokens, one
 * service per project, `--exit-with-stdin`, and the `start`, `status` and `stop` commands.
 */

import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import {
  call,
  callError,
  closeClient,
  mcpClient,
  runWeft,
  serve,
  tempProject,
  withServedProject,
} from "../support/service.ts";
import { claim, useTool } from "../agent/support.ts";
import { within } from "../support/deadline.ts";
import { isProcessAlive } from "../../src/weft_dir/process.ts";

Deno.test("serve prints exactly the ready line and writes owner-only state", async () => {
  await withServedProject(async (served) => {
    const dir = served.projectDir;
    assert.deepEqual(
      Object.keys(served).filter((key) => ["ready", "url", "port", "pid", "instanceId"].includes(key)).sort(),
      ["instanceId", "pid", "port", "ready", "url"],
    );
    assert.equal(served.url, `http://127.0.0.1:${served.port}`);
    assert.deepEqual(Object.keys(served.connection).sort(), [
      "externalToken",
      "instanceId",
      "internalToken",
      "pid",
      "port",
      "url",
      "version",
    ]);
    assert.notEqual(served.connection.externalToken, served.connection.internalToken);
    assert.match(served.connection.externalToken, /^[A-Za-z0-9_-]{43}$/);
    assert.equal((await Deno.stat(`${dir}/.weft`)).mode! & 0o777, 0o700);
    assert.equal((await Deno.stat(`${dir}/.weft/connection.json`)).mode! & 0o777, 0o600);
    assert.equal(await served.stop(), 0);
  });
});

Deno.test("a restart keeps the port and the tokens; modes opened up by hand make the state untrusted", async () => {
  const dir = await tempProject();
  try {
    const first = await serve(dir);
    await first.stop();
    await Deno.chmod(`${dir}/.weft`, 0o755);
    const refused = await runWeft(["serve", "--project", dir]);
    assert.equal(refused.code, 4, "it needs recovery, as `weft status` says");
    assert.match(refused.stderr, /\.weft has mode 0755[\s\S]*mv \.weft \.weft\.untrusted/);
    assert.equal((await Deno.stat(`${dir}/.weft`)).mode! & 0o777, 0o755, "untrusted state is left as it is");
    await Deno.chmod(`${dir}/.weft`, 0o700);
    const second = await serve(dir, { port: "previous" });
    try {
      assert.equal(second.port, first.port);
      assert.notEqual(second.instanceId, first.instanceId);
      assert.equal(second.connection.externalToken, first.connection.externalToken);
      assert.equal(second.connection.internalToken, first.connection.internalToken);
    } finally {
      await second.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("port fallback: a restart whose previous port is taken serves on a new one and logs why", async () => {
  const dir = await tempProject();
  try {
    const first = await serve(dir);
    await first.stop();
    const squatter = Deno.listen({ hostname: "127.0.0.1", port: first.port });
    try {
      const second = await serve(dir, { port: "previous" });
      try {
        assert.notEqual(second.port, first.port);
        assert.equal(second.connection.port, second.port, "connection.json names the new port");
        assert.equal(second.connection.externalToken, first.connection.externalToken);
      } finally {
        await second.stop();
      }
      const log = await Deno.readTextFile(`${dir}/.weft/logs/${second.instanceId}.jsonl`);
      const taken = log.trim().split("\n").map((line) => JSON.parse(line)).find((e) =>
        e.event === "service.port_taken"
      );
      assert.equal(taken?.port, first.port);
    } finally {
      squatter.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a second serve for the same project refuses while the first runs", async () => {
  await withServedProject(async (served) => {
    const dir = served.projectDir;
    const second = await runWeft(["serve", "--project", dir, "--port", "0"]);
    assert.equal(second.code, 1);
    const line = JSON.parse(second.stdout.trim());
    assert.equal(line.ready, false);
    assert.match(line.error, new RegExp(`pid ${served.pid}`));
  });
});

Deno.test("--exit-with-stdin stops the service cleanly when stdin closes", async () => {
  await withServedProject({ stdin: "piped", extraArgs: ["--exit-with-stdin"] }, async (served) => {
    await served.process.stdin.close();
    assert.equal((await within("weft serve to exit once its stdin closed", served.process.status)).code, 0);
    assert.ok(!(await exists(`${served.projectDir}/.weft/service.lock`)), "the lock is released");
  });
});

Deno.test("start runs the service in the background and reuses it; status and stop see it", async () => {
  const dir = await tempProject();
  let pid: number | undefined;
  try {
    const offline = await runWeft(["status", "--project", dir, "--json"]);
    assert.equal(offline.code, 3);
    assert.equal(JSON.parse(offline.stdout).state, "offline");

    const started = await runWeft(["start", "--project", dir, "--json"]);
    assert.equal(started.code, 0, started.stderr);
    const first = JSON.parse(started.stdout);
    pid = first.pid;
    assert.equal(first.state, "running");

    const again = await runWeft(["start", "--project", dir, "--json"]);
    assert.equal(again.code, 0);
    assert.equal(JSON.parse(again.stdout).pid, pid, "a second start reuses the running service");

    const status = await runWeft(["status", "--project", dir, "--json"]);
    assert.equal(status.code, 0);
    const report = JSON.parse(status.stdout);
    assert.equal(report.state, "running");
    assert.equal(report.service.endpoint.source, "cli");

    const stopped = await runWeft(["stop", "--project", dir, "--json"]);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.ok(!isProcessAlive(pid!), "stop waits until the process is gone");
    assert.equal((await runWeft(["status", "--project", dir])).code, 3);
  } finally {
    if (pid !== undefined && isProcessAlive(pid)) Deno.kill(pid, "SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("leftovers of a crashed instance: status says so, stop refuses, start clears them safely", async () => {
  const dir = await tempProject();
  try {
    const crashed = await serve(dir);
    await crashed.kill();
    let pid: number | undefined;
    try {
      const status = await runWeft(["status", "--project", dir, "--json"]);
      assert.equal(status.code, 4);
      const report = JSON.parse(status.stdout);
      assert.equal(report.state, "needs_recovery");
      assert.match(report.reason, new RegExp(`process ${crashed.pid} that held it is gone`));

      const stop = await runWeft(["stop", "--project", dir]);
      assert.equal(stop.code, 4, "stop never signals an instance it cannot verify");

      const started = await runWeft(["start", "--project", dir, "--json"]);
      assert.equal(started.code, 0, started.stderr);
      pid = JSON.parse(started.stdout).pid;
      const connection = JSON.parse(await Deno.readTextFile(`${dir}/.weft/connection.json`));
      assert.equal(connection.externalToken, crashed.connection.externalToken);
      assert.equal((await runWeft(["stop", "--project", dir])).code, 0);
    } finally {
      if (pid !== undefined && isProcessAlive(pid)) Deno.kill(pid, "SIGKILL");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the log is JSON lines per instance, and after tool calls with secrets in them it holds none", async () => {
  await withServedProject(async (served) => {
    const ide = await mcpClient(served, "/mcp");
    const cli = await mcpClient(served, "/internal/mcp");
    let ownerToken: string;
    try {
      const intent = "INTENT-MARKER export the reports";
      const { run } = await call<{ run: RunView }>(ide, "flow", { flowName: "intent", intent });
      const claimed = await claim(ide, run, "agent-log");
      ownerToken = claimed.ownerToken;
      await useTool(ide, claimed, "t1", "list_files");
      await callError(cli, "answer_ask", {
        runId: run.runId,
        actionId: "act_missing",
        answer: [{ questionId: "q", isSkipped: false, answer: "ANSWER-MARKER" }],
      });
      await call(cli, "cancel_run", { runId: run.runId });
    } finally {
      await closeClient(ide);
      await closeClient(cli);
    }
    assert.equal(await served.stop(), 0, "serve exits cleanly on SIGTERM");
    const text = await Deno.readTextFile(`${served.projectDir}/.weft/logs/${served.instanceId}.jsonl`);
    const events = text.trim().split("\n").map((line) => JSON.parse(line));
    assert.equal(events[0].event, "service.started");
    assert.equal(events.at(-1).event, "service.stopped");
    const tools = events.filter((event) => event.event === "tool.call").map((event) => event.tool);
    for (const tool of ["flow", "claim_agent_call", "call_agent_tool", "answer_ask", "cancel_run"]) {
      assert.ok(tools.includes(tool), `the log has the ${tool} call`);
    }
    const secrets = {
      externalToken: served.connection.externalToken,
      internalToken: served.connection.internalToken,
      ownerToken: ownerToken!,
      intent: "INTENT-MARKER",
      answer: "ANSWER-MARKER",
    };
    for (const [name, secret] of Object.entries(secrets)) {
      assert.ok(!text.includes(secret), `the log holds the ${name}`);
    }
  });
});

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
