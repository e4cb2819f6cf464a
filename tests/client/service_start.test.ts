/**
 * A service a client starts from a checkout runs with `SERVICE_V8_FLAGS` (a young generation kept small, which
 * bounds what a busy service holds) and takes its npm packages from the checkout's `node_modules/` as the
 * client left it (`SERVICE_NODE_MODULES_FLAG`, which spares it Deno's registry records), and works as any
 * other: it answers, and stops when asked. Without that folder beside the main module, only the V8 flag. It
 * runs with one `malloc` arena (`SERVICE_MALLOC_ARENAS`), unless the client's environment chose otherwise, and
 * from the checkout's service main module (`serviceMainPath`), while what it prints for a person to paste
 * still names `main.ts`.
 */

import assert from "node:assert/strict";
import {
  SERVICE_MALLOC_ARENAS,
  SERVICE_NODE_MODULES_FLAG,
  SERVICE_V8_FLAGS,
  serviceDenoFlags,
  serviceEnv,
  serviceMainPath,
} from "../../src/client/self_command.ts";
import { isProcessAlive } from "../../src/weft_dir/process.ts";
import { runWeft, tempProject } from "../support/service.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const SERVICE_MAIN = new URL("../../src/cli/service_main.ts", import.meta.url).pathname;

/** The command line of process `pid`, word by word (Linux). */
async function commandLine(pid: number): Promise<string[]> {
  const raw = await Deno.readTextFile(`/proc/${pid}/cmdline`);
  return raw.split("\0").filter((word) => word !== "");
}

/** The environment of process `pid` (Linux). */
async function environment(pid: number): Promise<Map<string, string>> {
  const raw = await Deno.readTextFile(`/proc/${pid}/environ`);
  const pairs = raw.split("\0").filter((entry) => entry.includes("="));
  return new Map(
    pairs.map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
}

Deno.test("a started service runs `deno run` with the service's flags and answers", async () => {
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
    const module = words.findIndex((word) => word.endsWith(".ts"));
    assert.equal(words[module], SERVICE_MAIN, "started from the service's own main module");
    assert.ok(words.indexOf(SERVICE_V8_FLAGS) < module);
    assert.ok(
      words.slice(0, serveAt).includes(SERVICE_NODE_MODULES_FLAG),
      `the checkout's node_modules/ is used as it is: ${words.join(" ")}`,
    );

    const env = await environment(pid);
    const expected = Deno.env.get("MALLOC_ARENA_MAX") ?? SERVICE_MALLOC_ARENAS.MALLOC_ARENA_MAX;
    assert.equal(
      env.get("MALLOC_ARENA_MAX"),
      expected,
      "one malloc arena unless the client's environment says",
    );

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

Deno.test("the service keeps Deno's own npm setup where no node_modules/ sits beside the main module", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const main = `${dir}/main.ts`;
    assert.deepEqual(serviceDenoFlags(main), [SERVICE_V8_FLAGS]);
    await Deno.mkdir(`${dir}/node_modules`);
    assert.deepEqual(serviceDenoFlags(main), [SERVICE_V8_FLAGS, SERVICE_NODE_MODULES_FLAG]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the service's malloc arenas are the client's choice when its environment makes one", () => {
  assert.deepEqual(serviceEnv(new Map()), { MALLOC_ARENA_MAX: "1" });
  assert.deepEqual(serviceEnv(new Map([["MALLOC_ARENA_MAX", "4"]])), {});
});

Deno.test("the service's own main module runs serve only, and what it prints to paste names main.ts", async () => {
  assert.equal(serviceMainPath(MAIN), SERVICE_MAIN);
  assert.equal(serviceMainPath("/somewhere/dist/weft.js"), "/somewhere/dist/weft.js", "a bundle runs itself");
  const dir = await tempProject();
  try {
    const started = await runWeft(["start", "--project", dir, "--json"]);
    assert.equal(started.code, 0, started.stderr);
    // A second service for the same project fails to start, with a fix line naming commands to paste.
    const second = await runWeft(["serve", "--project", dir, "--port", "0"], {
      program: ["run", "-A", SERVICE_MAIN],
    });
    assert.equal(second.code, 1, second.stderr);
    assert.match(second.stdout, /"ready":false.*"code":"ALREADY_RUNNING"/);
    // The main module is named relative to the working directory when it lies within it.
    assert.match(second.stderr, new RegExp(`run -A (${MAIN}|main\\.ts) stop --project ${dir}\``));
    assert.doesNotMatch(second.stderr, /service_main/);

    const other = await runWeft(["status"], { program: ["run", "-A", SERVICE_MAIN] });
    assert.equal(other.code, 2, "any other command is a usage error");
    assert.match(other.stderr, /serve/);
  } finally {
    await runWeft(["stop", "--project", dir]);
    await Deno.remove(dir, { recursive: true });
  }
});
