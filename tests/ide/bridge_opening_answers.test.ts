/**
 * `weft mcp` that has to start the service answers the IDE's `initialize` and `tools/list` from the service's
 * last answers (`.weft/ide_answers.json`) and joins the service's session before the first call: the IDE sees
 * the very answers the service gives, a record of another version or in an untrusted `.weft/` is never
 * used, a running service is always asked itself, a record that turns out stale is replaced, and a service
 * that cannot start fails the IDE's calls with a clear error instead of leaving them waiting.
 *
 * @module
 */

import assert from "node:assert/strict";
import { type Message, ScriptedIde } from "../support/bridge.ts";
import { runWeft, serve, tempProject } from "../support/service.ts";
import { PROTOCOL_VERSION } from "../support/jsonrpc.ts";
import { VERSION } from "../../src/version.ts";

const INITIALIZE = {
  protocolVersion: PROTOCOL_VERSION,
  capabilities: {},
  clientInfo: { name: "scripted-ide", version: "0" },
};

const MARK = "RECORDED-NOT-SERVED";

/** What an IDE does when it opens its session: initialize, initialized, tools/list. */
async function open(ide: ScriptedIde): Promise<{ initialize: Message; tools: Message }> {
  const initialize = await ide.request(1, "initialize", INITIALIZE);
  await ide.send({ method: "notifications/initialized" });
  const tools = await ide.request(2, "tools/list");
  return { initialize, tools };
}

/** A session through the bridge that ends with a call the service answers; resolves with what was seen. */
async function session(projectDir: string) {
  const ide = new ScriptedIde(projectDir);
  let seen;
  try {
    const opened = await open(ide);
    const status = await ide.request(3, "tools/call", { name: "status", arguments: {} });
    seen = { ...opened, status, ide };
  } finally {
    // The first error is the one to report: the exit code is checked once the session went through.
    const exit = await ide.close();
    if (seen) assert.equal(exit, 0);
  }
  return seen;
}

/** The project's record, parsed. */
async function record(projectDir: string) {
  return JSON.parse(await Deno.readTextFile(`${projectDir}/.weft/ide_answers.json`));
}

/** Rewrites the project's record with `change` (mode kept: 0600, as weft writes it). */
async function editRecord(projectDir: string, change: (file: Message) => void): Promise<void> {
  const file = await record(projectDir);
  change(file);
  await Deno.writeTextFile(`${projectDir}/.weft/ide_answers.json`, JSON.stringify(file));
}

/** Marks the recorded /mcp answers, so a test can tell whether the IDE was given the record. */
function mark(file: Message): void {
  const answers = file.endpoints["/mcp"];
  answers[`initialize ${PROTOCOL_VERSION}`].instructions = MARK;
  answers["tools/list"].tools[0].description = MARK;
}

async function stop(projectDir: string): Promise<void> {
  const stopped = await runWeft(["stop", "--project", projectDir]);
  assert.equal(stopped.code, 0, stopped.stderr);
}

/** A project whose bridge has had one session (so its record holds the service's answers), service stopped. */
async function recordedProject(): Promise<{ dir: string; first: Awaited<ReturnType<typeof session>> }> {
  const dir = await tempProject({ "README.md": "# test\n" });
  const first = await session(dir);
  await stop(dir);
  return { dir, first };
}

Deno.test("a cold weft mcp gives the IDE the service's own answers, then its calls reach the service", async () => {
  const { dir, first } = await recordedProject();
  try {
    const file = await record(dir);
    assert.equal(file.weft, VERSION);
    const info = await Deno.stat(`${dir}/.weft/ide_answers.json`);
    assert.equal(info.mode! & 0o777, 0o600, "weft's own state is owner-only");

    const cold = await session(dir);
    // The same answers as the service gave the first session itself (forwarded then, recorded since).
    assert.deepEqual(cold.initialize.result, first.initialize.result);
    assert.deepEqual(cold.tools.result, first.tools.result);
    assert.equal(cold.initialize.result.serverInfo.version, VERSION);
    // The call needed the service: the bridge had joined a session of the service it started.
    assert.equal(cold.status.error, undefined, JSON.stringify(cold.status));
    const service = cold.status.result.structuredContent.service;
    assert.notEqual(service.pid, first.status.result.structuredContent.service.pid);
    assert.equal(service.endpoint.path, "/mcp");
    // The IDE hears of no difference: no list change, no stray answer.
    assert.deepEqual(cold.ide.messages.map((message) => message.id ?? message.method), [1, 2, 3]);
  } finally {
    await stop(dir);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a record that differs from what the service answers is replaced, and the IDE told", async () => {
  const { dir } = await recordedProject();
  try {
    await editRecord(dir, mark);
    const ide = new ScriptedIde(dir);
    let exit;
    try {
      const { initialize, tools } = await open(ide);
      // The bridge starts the service, so it gives the record (here edited by hand: a checkout's edit, say).
      assert.equal(initialize.result.instructions, MARK);
      assert.equal(tools.result.tools[0].description, MARK);
      const status = await ide.request(3, "tools/call", { name: "status", arguments: {} });
      assert.equal(status.error, undefined);
      await ide.next((message) => message.method === "notifications/tools/list_changed");
      const listed = await ide.request(4, "tools/list");
      assert.notEqual(listed.result.tools[0].description, MARK, "the list now comes from the service");
    } finally {
      exit = await ide.close();
    }
    assert.equal(exit, 0);
    assert.match(ide.stderr.text, /differs from the recorded one/);
    const answers = (await record(dir)).endpoints["/mcp"];
    assert.notEqual(answers[`initialize ${PROTOCOL_VERSION}`].instructions, MARK);
    assert.notEqual(answers["tools/list"].tools[0].description, MARK);
  } finally {
    await stop(dir);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a record of another weft version is not used, and is replaced by this version's", async () => {
  const { dir, first } = await recordedProject();
  try {
    await editRecord(dir, (file) => {
      mark(file);
      file.weft = "0.0.0-another";
    });
    const cold = await session(dir);
    assert.deepEqual(cold.initialize.result, first.initialize.result);
    assert.deepEqual(cold.tools.result, first.tools.result);
    const file = await record(dir);
    assert.equal(file.weft, VERSION);
    assert.deepEqual(file.endpoints["/mcp"][`initialize ${PROTOCOL_VERSION}`], first.initialize.result);
  } finally {
    await stop(dir);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a running service is asked itself: it may be another version than the record's", async () => {
  const { dir, first } = await recordedProject();
  try {
    await editRecord(dir, mark);
    const running = await serve(dir);
    try {
      const again = await session(dir);
      assert.deepEqual(again.initialize.result, first.initialize.result);
      assert.deepEqual(again.tools.result, first.tools.result);
      assert.equal(again.status.result.structuredContent.service.pid, running.pid);
    } finally {
      await running.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a record in a .weft/ weft does not trust is never given to the IDE", async () => {
  const { dir } = await recordedProject();
  try {
    await editRecord(dir, mark);
    // As a checkout would leave a file it brought: readable by all.
    await Deno.chmod(`${dir}/.weft/ide_answers.json`, 0o644);
    const ide = new ScriptedIde(dir);
    let exit;
    try {
      const initialize = await ide.request(1, "initialize", INITIALIZE);
      assert.equal(initialize.result, undefined, JSON.stringify(initialize));
      assert.match(
        initialize.error.message,
        /could not start the weft service.*ide_answers\.json has mode 0644/,
      );
    } finally {
      exit = await ide.close();
    }
    assert.equal(exit, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("when the service cannot start, the IDE's calls get a clear error after a recorded initialize", async () => {
  const { dir, first } = await recordedProject();
  try {
    // The store is unreadable: .weft/ is still weft's own, but no service can start on it.
    for (const suffix of ["-wal", "-shm"]) await Deno.remove(`${dir}/.weft/weft.db${suffix}`).catch(() => {});
    await Deno.writeTextFile(`${dir}/.weft/weft.db`, "not a database ".repeat(512));
    const ide = new ScriptedIde(dir);
    let exit;
    try {
      const { initialize, tools } = await open(ide);
      assert.deepEqual(initialize.result, first.initialize.result);
      assert.deepEqual(tools.result, first.tools.result);
      for (const id of [3, 4]) {
        const status = await ide.request(id, "tools/call", { name: "status", arguments: {} });
        assert.equal(status.result, undefined, JSON.stringify(status));
        assert.equal(status.error.code, -32000);
        assert.match(status.error.message, /could not start the weft service.*store could not complete/);
      }
      const read = await ide.request(5, "resources/read", { uri: "weft://docs/agent-protocol" });
      assert.equal(read.error.code, -32000);
    } finally {
      exit = await ide.close();
    }
    assert.equal(exit, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
