/**
 * The idle exit of a real `weft serve --idle-exit 2s`: it stays while a session is open (its stream
 * listening) or a model turn of its own runs, exits in order once the last of them ended, even with a
 * person's question waiting, and the next start finds that Run waiting and answerable. `weft start` without
 * the flag never exits by itself; a bad value is a usage error.
 *
 * "Stays" is shown without a fixed sleep: a second service with the same bound and no client at all is
 * started after the first one's work began, and only once it has exited (so the bound has passed) is the
 * first one checked.
 */
import assert from "node:assert/strict";
import { tmpdir } from "node:os";
import type { RunView } from "../../src/engine/views.ts";
import { isProcessAlive } from "../../src/weft_dir/process.ts";
import { humanFlow, workflowFiles } from "../support/workflows.ts";
import {
  call,
  closeClient,
  mcpClient,
  runWeft,
  serve,
  type ServedProject,
  tempProject,
  trustProject,
} from "../support/service.ts";
import { eventually, within } from "../support/deadline.ts";
import { scriptedServer } from "../model/scripted_server.ts";
import { intentModel, serviceLogs } from "../model/support.ts";

const IDLE_EXIT = ["--idle-exit", "2s"];

/** Resolves once a service started now with `--idle-exit 2s` and no client has exited: the bound has passed. */
async function boundPassed(): Promise<void> {
  const dir = await tempProject();
  try {
    const control = await serve(dir, { extraArgs: IDLE_EXIT });
    const status = await within("an unused service with --idle-exit 2s to exit", control.process.status);
    assert.equal(status.code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Waits for `served` to exit by itself and checks the exit was the orderly idle one. */
async function exitedIdle(served: ServedProject): Promise<void> {
  const status = await within(`weft serve (pid ${served.pid}) to exit idle`, served.process.status);
  assert.equal(status.code, 0, "an idle exit is a clean exit");
  const log = serviceLogs(served.projectDir);
  assert.match(
    log,
    /"service\.idle_exit".*"idleFor":"2s"[\s\S]*"service\.stopped"/,
    "the log says why it went",
  );
  await assert.rejects(Deno.stat(`${served.projectDir}/.weft/service.lock`), Deno.errors.NotFound);
  const relays = [...Deno.readDirSync(tmpdir())].filter((entry) =>
    entry.name.startsWith(`weft-http-${served.pid}-`)
  );
  assert.deepEqual(relays, [], "the relay folder is removed, as on SIGTERM");
}

Deno.test("idle exit: an open session keeps the service; after it closes the service exits, the person's Run waits on", async () => {
  const manifest = humanFlow({ name: "review", title: "Review", description: "Asks, confirms, commits." });
  const dir = await tempProject(workflowFiles(manifest));
  let again: ServedProject | undefined;
  try {
    const served = await serve(dir, { extraArgs: IDLE_EXIT });
    // The SDK client opens its session's GET stream after initialize; it listens while the bound passes.
    const ide = await mcpClient(served, "/mcp");
    const person = await mcpClient(served, "/internal/mcp");
    const { run } = await call<{ run: RunView }>(person, "flow", { flowName: "review", intent: "idle" });
    assert.equal(run.pendingAction?.kind, "user_ask_questions");
    await closeClient(person);

    await boundPassed();
    assert.ok(isProcessAlive(served.pid), "an open session kept the service past its idle bound");
    const status = await call<{ service: { pid: number } }>(ide, "status");
    assert.equal(status.service.pid, served.pid);

    await closeClient(ide);
    await exitedIdle(served);

    again = await serve(dir);
    const client = await mcpClient(again, "/internal/mcp");
    try {
      const waiting = (await call<{ run: RunView }>(client, "get_run", { runId: run.runId })).run;
      assert.equal(waiting.status, "waiting");
      assert.equal(waiting.pendingAction?.id, run.pendingAction!.id, "the person's question still waits");
      const answered = (await call<{ run: RunView }>(client, "answer_ask", {
        runId: run.runId,
        actionId: run.pendingAction!.id,
        answer: [
          { questionId: "title", isSkipped: false, answer: "A fine title" },
          { questionId: "color", isSkipped: false, answer: "Red" },
          { questionId: "notes", isSkipped: true },
        ],
      })).run;
      assert.equal(answered.pendingAction?.kind, "user_ask_confirmation", "the answer was taken");
    } finally {
      await closeClient(client);
    }
  } finally {
    await again?.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("idle exit: a model turn of the service's own keeps it with no session open", async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  const script = intentModel();
  const model = scriptedServer("openai", async (request, index) => {
    if (index === 0) await held;
    return script(request);
  });
  const dir = await tempProject({
    "README.md": "# demo\n",
    "weft.json": JSON.stringify({
      models: { default: { provider: "openai-compatible", model: "scripted", baseURL: `${model.url}/v1` } },
    }),
  });
  const userDir = await Deno.makeTempDir({ prefix: "weft-user-" });
  try {
    await trustProject(dir, userDir);
    const served = await serve(dir, { extraArgs: IDLE_EXIT, env: { XDG_CONFIG_HOME: userDir } });
    const person = await mcpClient(served, "/internal/mcp");
    const { run } = await call<{ run: RunView }>(person, "flow", {
      flowName: "intent",
      intent: "CSV export",
    });
    await within("the service's model turn to begin", model.received(1));
    await closeClient(person);

    await boundPassed();
    assert.ok(isProcessAlive(served.pid), "the model turn in progress kept the service past its idle bound");

    release();
    await exitedIdle(served);
    assert.ok(model.requests.length >= 3, "the turn ran to its end before the service went");

    const again = await serve(dir, { env: { XDG_CONFIG_HOME: userDir } });
    const client = await mcpClient(again, "/internal/mcp");
    try {
      const waiting = (await call<{ run: RunView }>(client, "get_run", { runId: run.runId })).run;
      assert.equal(
        waiting.pendingAction?.kind,
        "user_ask_questions",
        "the model's question waits for the person",
      );
    } finally {
      await closeClient(client);
      await again.stop();
    }
  } finally {
    release();
    await model.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(userDir, { recursive: true });
  }
});

Deno.test("idle exit: weft start without --idle-exit never exits by itself; with it, it does", async () => {
  const dir = await tempProject();
  const userDir = await tempProject({ "weft/weft.json": JSON.stringify({ service: { idleExit: "2s" } }) });
  const env = { ...Deno.env.toObject(), XDG_CONFIG_HOME: userDir };
  const pids: number[] = [];
  try {
    const started = await runWeft(["start", "--project", dir, "--json"], { env });
    assert.equal(started.code, 0, started.stderr);
    pids.push(JSON.parse(started.stdout).pid);
    await boundPassed();
    assert.ok(isProcessAlive(pids[0]), "an explicit start ignores the idle exit a client's start would use");
    assert.equal((await runWeft(["stop", "--project", dir], { env })).code, 0);

    const bounded = await runWeft(["start", "--project", dir, "--idle-exit", "2s", "--json"], { env });
    assert.equal(bounded.code, 0, bounded.stderr);
    pids.push(JSON.parse(bounded.stdout).pid);
    await eventually(
      "weft start --idle-exit 2s to exit idle",
      () => isProcessAlive(pids[1]) ? undefined : true,
    );
    assert.equal(
      (await runWeft(["status", "--project", dir], { env })).code,
      3,
      "offline, not needing recovery",
    );
  } finally {
    for (const pid of pids) if (isProcessAlive(pid)) Deno.kill(pid, "SIGKILL");
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(userDir, { recursive: true });
  }
});

Deno.test("idle exit: a bad --idle-exit is a usage error naming the accepted forms", async () => {
  const dir = await tempProject();
  try {
    for (const command of ["serve", "start"]) {
      const result = await runWeft([command, "--project", dir, "--idle-exit", "5x"]);
      assert.equal(result.code, 2, `${command}: ${result.stderr}`);
      assert.match(
        result.stderr,
        /--idle-exit takes a duration: 0 \(never\), seconds \(90\).*90s, 30m, 2h.*"5x"/,
      );
    }
    await assert.rejects(Deno.stat(`${dir}/.weft/service.lock`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
