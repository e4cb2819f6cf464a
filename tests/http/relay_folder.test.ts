/**
 * The relay socket's private folder: a stop removes it, and a start removes the ones killed services of this
 * user left, never a live service's, another user's, or anything that is not exactly such a folder.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRelayFolder, removeStaleRelayFolders } from "../../src/http/relay_folder.ts";
import { serveOnLoopback } from "../../src/http/loopback_server.ts";
import { Logger } from "../../src/lib/logger.ts";
import { runWeft, serve, tempProject } from "../support/service.ts";
import { isProcessAlive } from "../../src/weft_dir/process.ts";

const DEAD = 999_999_001;
const LIVE = 999_999_002;
const isAlive = (pid: number) => pid === LIVE;

/** Every name under `root`, sorted. */
async function namesIn(root: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(root))).map((entry) => entry.name).sort();
}

/**
 * Listeners of the socket files made by {@linkcode relayFolder}, closed at the end of the test: a listener that
 * is closed removes its file, and a killed service's is left behind.
 */
const listeners: Deno.Listener[] = [];

/** A relay folder as a service makes it: 0700, holding a socket file. */
async function relayFolder(root: string, name: string): Promise<string> {
  const folder = join(root, name);
  await Deno.mkdir(folder, { mode: 0o700 });
  await Deno.chmod(folder, 0o700);
  listeners.push(Deno.listen({ transport: "unix", path: join(folder, "http.sock") }));
  return folder;
}

Deno.test("relay folders: a start removes only this user's folders of dead processes, exactly as made", async () => {
  const root = await Deno.makeTempDir();
  try {
    await relayFolder(root, `weft-http-${DEAD}-stale1`);
    await Deno.mkdir(join(root, `weft-http-${DEAD}-stale2`), { mode: 0o700 }); // killed before it listened
    await Deno.chmod(join(root, `weft-http-${DEAD}-stale2`), 0o700);
    await relayFolder(root, `weft-http-${LIVE}-live`);
    await relayFolder(root, `weft-http-${Deno.pid}-mine`);
    await relayFolder(root, "weft-http-0a1b2c3d4e5f6a7b"); // the old name, without a pid: whose is unknown
    const loose = await relayFolder(root, `weft-http-${DEAD}-loose`);
    await Deno.chmod(loose, 0o755);
    const stuffed = await relayFolder(root, `weft-http-${DEAD}-stuffed`);
    await Deno.writeTextFile(join(stuffed, "notes.txt"), "not weft's");
    const target = await relayFolder(root, "target");
    await Deno.symlink(target, join(root, `weft-http-${DEAD}-link`));
    await Deno.writeTextFile(join(root, `weft-http-${DEAD}-file`), "a file");

    // As another user, nothing here is ours: nothing goes.
    assert.equal(await removeStaleRelayFolders(isAlive, root, Deno.uid()! + 1), 0);
    assert.equal((await namesIn(root)).length, 10);

    assert.equal(await removeStaleRelayFolders(isAlive, root), 2);
    assert.deepEqual(
      await namesIn(root),
      [
        "target",
        "weft-http-0a1b2c3d4e5f6a7b",
        `weft-http-${DEAD}-file`,
        `weft-http-${DEAD}-link`,
        `weft-http-${DEAD}-loose`,
        `weft-http-${DEAD}-stuffed`,
        `weft-http-${Deno.pid}-mine`,
        `weft-http-${LIVE}-live`,
      ].sort(),
    );
    assert.deepEqual(await namesIn(target), ["http.sock"], "a link's target is never followed");
  } finally {
    for (const listener of listeners.splice(0)) listener.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("relay folders: a server's folder carries its pid, is 0700, and goes with its shutdown", async () => {
  const root = await Deno.makeTempDir();
  try {
    const made = await makeRelayFolder(root);
    assert.match(made, new RegExp(`/weft-http-${Deno.pid}-[A-Za-z0-9_]+$`));
    assert.equal((await Deno.stat(made)).mode! & 0o777, 0o700);
    await Deno.remove(made);
    const server = await serveOnLoopback(() => Promise.resolve(new Response("ok")), {
      port: 0,
      logger: Logger.silent(),
      relayRoot: root,
    });
    const [folder] = await namesIn(root);
    assert.deepEqual(await namesIn(join(root, folder)), ["http.sock"]);
    await server.shutdown();
    assert.deepEqual(await namesIn(root), []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("relay folders: the folder a killed service left is removed by the next start, and that one's by its stop", async () => {
  const dir = await tempProject();
  const root = await Deno.makeTempDir();
  const env = { TMPDIR: root };
  let pid: number | undefined;
  try {
    const crashed = await serve(dir, { env });
    const [left] = await namesIn(root);
    assert.match(left, new RegExp(`^weft-http-${crashed.pid}-`));
    await crashed.kill();
    assert.deepEqual(await namesIn(root), [left], "SIGKILL leaves the folder behind");

    const started = await runWeft(["start", "--project", dir, "--json"], { env });
    assert.equal(started.code, 0, started.stderr);
    pid = JSON.parse(started.stdout).pid;
    const during = await namesIn(root);
    assert.ok(!during.includes(left), "the next start removed the crashed service's folder");
    assert.ok(during.some((name) => name.startsWith(`weft-http-${pid}-`)), "the new service has its own");
    const log = await Deno.readTextFile(`${dir}/.weft/logs/${JSON.parse(started.stdout).instanceId}.jsonl`);
    const events = log.trim().split("\n").map((line) => JSON.parse(line).event);
    assert.deepEqual(
      events.slice(0, 2),
      ["service.started", "service.stale_relay_folders_removed"],
      "the instance's log opens with its start, and then says what the start cleared",
    );
    assert.equal((await runWeft(["stop", "--project", dir], { env })).code, 0);
    assert.deepEqual(await namesIn(root), [], "the stop removed its own folder");
  } finally {
    if (pid !== undefined && isProcessAlive(pid)) Deno.kill(pid, "SIGKILL");
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(root, { recursive: true });
  }
});
