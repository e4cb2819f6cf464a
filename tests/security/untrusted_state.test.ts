/**
 * A `.weft/` that weft did not make for this user: planted by a repository (a checkout's modes, or an
 * archive's exact ones), tracked by git, a symbolic link, another user's. It is never used (no connection to
 * the URL it names, no token sent), never changed or deleted, and every command says what was found and how
 * to recover; moving it aside recovers.
 */

import assert from "node:assert/strict";
import { runWeft, serve, tempProject } from "../support/service.ts";
import { StreamText, within } from "../support/deadline.ts";
import { initializeRequest } from "../support/jsonrpc.ts";
import { spawnBridge } from "../support/bridge.ts";
import { isProcessAlive } from "../../src/weft_dir/process.ts";

/**
 * A loopback listener that counts the connections it gets: a planted URL must never be dialled. Its port is
 * below the range the system hands out for port 0, where every service of the other tests listens: a client
 * of theirs that retries a stopped service's port (a Studio page, a bridge) can never land here and count.
 */
function trap(): { port: number; dialled: () => number; close: () => void } {
  const listener = listenBelowEphemeralPorts();
  let dialled = 0;
  (async () => {
    for await (const conn of listener) {
      dialled++;
      conn.close();
    }
  })().catch(() => {});
  return { port: listener.addr.port, dialled: () => dialled, close: () => listener.close() };
}

function listenBelowEphemeralPorts(): Deno.TcpListener {
  const [low] = Deno.readTextFileSync("/proc/sys/net/ipv4/ip_local_port_range").trim().split(/\s+/).map(
    Number,
  );
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * Math.max(1, Math.min(low, 32_768) - 20_000));
    try {
      return Deno.listen({ hostname: "127.0.0.1", port });
    } catch (error) {
      if (!(error instanceof Deno.errors.AddrInUse)) throw error;
    }
  }
  throw new Error("no free port below the ephemeral range for the trap");
}

/** Plants `.weft/` as a repository would ship it: metadata naming `url`, a lock naming pid 1. */
async function plant(dir: string, url: string, port: number, modes: { dir: number; file: number }) {
  await Deno.mkdir(`${dir}/.weft/logs`, { recursive: true });
  const files: Record<string, unknown> = {
    "connection.json": {
      version: 1,
      url,
      port,
      pid: 1,
      instanceId: "inst_planted",
      externalToken: "e".repeat(43),
      internalToken: "i".repeat(43),
    },
    "service.lock": { pid: 1, instanceId: "inst_planted", startedAt: new Date().toISOString() },
  };
  for (const [name, value] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/.weft/${name}`, JSON.stringify(value));
    await Deno.chmod(`${dir}/.weft/${name}`, modes.file);
  }
  await Deno.chmod(`${dir}/.weft/logs`, modes.dir);
  await Deno.chmod(`${dir}/.weft`, modes.dir);
}

/** Every file under `.weft/` with its content, to prove that nothing was changed or removed. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  const walk = async (path: string) => {
    for await (const entry of Deno.readDir(path)) {
      const full = `${path}/${entry.name}`;
      const info = await Deno.lstat(full);
      if (info.isDirectory) await walk(full);
      else {seen[full] = `${(info.mode ?? 0) & 0o777}:${
          info.isSymlink ? "link" : await Deno.readTextFile(full)
        }`;}
    }
  };
  await walk(`${dir}/.weft`);
  return seen;
}

async function expectRefused(dir: string, finding: RegExp): Promise<void> {
  const status = await runWeft(["status", "--project", dir, "--json"]);
  assert.equal(status.code, 4, status.stdout + status.stderr);
  assert.match(JSON.parse(status.stdout).reason, finding);
  const human = await runWeft(["status", "--project", dir]);
  assert.match(human.stdout, /untrusted state.*\n.*mv \.weft \.weft\.untrusted/);
  const start = await runWeft(["start", "--project", dir]);
  assert.equal(start.code, 4, "start never reuses or adopts untrusted state: it needs recovery");
  assert.doesNotMatch(start.stdout, /already running/);
  assert.match(start.stdout + start.stderr, /mv \.weft \.weft\.untrusted/);
  const doctor = await runWeft(["doctor", "--json", "--project", dir]);
  const modes = JSON.parse(doctor.stdout).findings.find((f: { check: string }) => f.check === "modes");
  assert.equal(modes.state, "problem");
  assert.match(modes.message, finding);
  assert.match(modes.fix, /mv \.weft \.weft\.untrusted/);
}

Deno.test("a .weft/ shipped by a repository is never used: no connection to its URL, nothing changed", async () => {
  const dir = await tempProject();
  const fake = trap();
  try {
    // As a checkout writes it (umask 022): loose modes.
    await plant(dir, `http://127.0.0.1:${fake.port}`, fake.port, { dir: 0o755, file: 0o644 });
    const before = await snapshot(dir);
    await expectRefused(dir, /\.weft has mode 0755/);
    assert.deepEqual(await snapshot(dir), before, "untrusted state is neither changed nor deleted");
    assert.equal(fake.dialled(), 0, "the URL of untrusted metadata is never dialled");

    // As an archive could carry it (exact modes): the URL is not loopback on its port, so it is refused too.
    await Deno.remove(`${dir}/.weft`, { recursive: true });
    await plant(dir, "http://other.example:80", 80, { dir: 0o700, file: 0o600 });
    await expectRefused(dir, /connection\.json names a URL other than this machine's loopback address/);

    // With a loopback URL and exact modes, the lock's pid 1 is not a weft service of this user: never dialled.
    await Deno.remove(`${dir}/.weft`, { recursive: true });
    await plant(dir, `http://127.0.0.1:${fake.port}`, fake.port, { dir: 0o700, file: 0o600 });
    const status = await runWeft(["status", "--project", dir, "--json"]);
    assert.equal(status.code, 4);
    assert.match(JSON.parse(status.stdout).reason, /process 1 .*another program/);
    assert.equal(fake.dialled(), 0, "a lock naming a process that is not weft is never trusted");

    // Moving it aside recovers.
    await Deno.rename(`${dir}/.weft`, `${dir}/.weft.untrusted`);
    const served = await serve(dir);
    assert.notEqual(served.port, fake.port);
    await served.stop();
  } finally {
    fake.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a symlinked .weft/ or .weft/logs, another user's .weft/, or one tracked by git is refused", async () => {
  const cases: [string, (dir: string) => Promise<void>, RegExp][] = [
    ["symlinked .weft", async (dir) => {
      const elsewhere = await Deno.makeTempDir();
      await Deno.chmod(elsewhere, 0o755);
      await Deno.symlink(elsewhere, `${dir}/.weft`);
    }, /\.weft is a symbolic link/],
    ["symlinked logs", async (dir) => {
      const elsewhere = await Deno.makeTempDir();
      await Deno.chmod(elsewhere, 0o755);
      await Deno.mkdir(`${dir}/.weft`, { mode: 0o700 });
      await Deno.chmod(`${dir}/.weft`, 0o700);
      await Deno.symlink(elsewhere, `${dir}/.weft/logs`);
    }, /\.weft\/logs is a symbolic link/],
    ["hard-linked metadata", async (dir) => {
      await Deno.mkdir(`${dir}/.weft`, { mode: 0o700 });
      await Deno.chmod(`${dir}/.weft`, 0o700);
      await Deno.writeTextFile(`${dir}/elsewhere.json`, "{}", { mode: 0o600 });
      await Deno.chmod(`${dir}/elsewhere.json`, 0o600);
      await Deno.link(`${dir}/elsewhere.json`, `${dir}/.weft/connection.json`);
    }, /connection\.json has more than one hard link/],
  ];
  if (Deno.uid() === 0) {
    cases.push(["another user's", async (dir) => {
      await Deno.mkdir(`${dir}/.weft`, { mode: 0o700 });
      await Deno.chmod(`${dir}/.weft`, 0o700);
      await Deno.chown(`${dir}/.weft`, 65534, 65534);
    }, /\.weft belongs to another user/]);
  }
  const git = await new Deno.Command("git", { args: ["--version"] }).output().catch(() => null);
  if (git?.success) {
    cases.push(["tracked by git", async (dir) => {
      await Deno.mkdir(`${dir}/.weft`, { mode: 0o700 });
      await Deno.chmod(`${dir}/.weft`, 0o700);
      await Deno.writeTextFile(`${dir}/.weft/service.lock`, "{}", { mode: 0o600 });
      await Deno.chmod(`${dir}/.weft/service.lock`, 0o600);
      for (const args of [["init", "-q"], ["add", "-f", ".weft/service.lock"]]) {
        const done = await new Deno.Command("git", { args, cwd: dir }).output();
        assert.ok(done.success, `git ${args.join(" ")}`);
      }
    }, /\.weft is tracked by git/]);
  }
  for (const [name, prepare, finding] of cases) {
    const dir = await tempProject();
    try {
      await prepare(dir);
      const before = await snapshot(dir).catch(() => ({}));
      const served = await runWeft(["serve", "--project", dir, "--port", "0"]);
      assert.equal(served.code, 4, name);
      assert.match(served.stderr, finding, name);
      assert.match(served.stderr, /mv \.weft \.weft\.untrusted/, name);
      // Read without the service, as `weft token` reads it: the same recovery, not a bare failure.
      const token = await runWeft(["token", "--project", dir, "--json"]);
      assert.equal(token.code, 4, `${name}: ${token.stdout}${token.stderr}`);
      const { error } = JSON.parse(token.stdout);
      assert.equal(error.code, "NEEDS_RECOVERY", name);
      assert.match(error.fix, /mv \.weft \.weft\.untrusted/, name);
      assert.deepEqual(await snapshot(dir).catch(() => ({})), before, `${name}: nothing changed`);
      const status = await runWeft(["status", "--project", dir, "--json"]);
      assert.equal(status.code, 4, name);
      assert.match(JSON.parse(status.stdout).reason, finding, name);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("weft's own state is owner-only: .weft/ and logs 0700; metadata, lock, database, -wal, -shm, logs 0600", async () => {
  const dir = await tempProject();
  const served = await serve(dir);
  try {
    const status = await runWeft(["status", "--project", dir]);
    assert.equal(status.code, 0, status.stdout + status.stderr);
    const mode = async (path: string) => ((await Deno.lstat(`${dir}/.weft/${path}`)).mode ?? 0) & 0o777;
    assert.equal(await mode(""), 0o700);
    assert.equal(await mode("logs"), 0o700);
    for (const file of ["connection.json", "service.lock", "weft.db", "weft.db-wal", "weft.db-shm"]) {
      assert.equal(await mode(file), 0o600, file);
    }
    for await (const log of Deno.readDir(`${dir}/.weft/logs`)) {
      assert.equal(await mode(`logs/${log.name}`), 0o600);
    }
  } finally {
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a port that the lock's process does not serve gets no connection and no token", async () => {
  const real = await tempProject();
  const dir = await tempProject();
  const served = await serve(real);
  const fake = trap();
  try {
    // Exact modes, a loopback URL, and a lock naming a live weft service of this user, but of another project:
    // the port belongs to someone else (here the trap), so weft never dials it.
    await plant(dir, `http://127.0.0.1:${fake.port}`, fake.port, { dir: 0o700, file: 0o600 });
    for (const name of ["connection.json", "service.lock"]) {
      const path = `${dir}/.weft/${name}`;
      const value = JSON.parse(await Deno.readTextFile(path));
      await Deno.writeTextFile(path, JSON.stringify({ ...value, pid: served.pid }));
    }
    const status = await runWeft(["status", "--project", dir, "--json"]);
    assert.equal(status.code, 4, status.stdout + status.stderr);
    assert.match(JSON.parse(status.stdout).reason, /not served by the process the lock names/);
    // Its process lives and holds the lock, but it is no service to reuse: start says what status says.
    const start = await runWeft(["start", "--project", dir, "--json"]);
    assert.equal(start.code, 4, start.stdout + start.stderr);
    const { error } = JSON.parse(start.stdout);
    assert.equal(error.code, "NEEDS_RECOVERY");
    assert.match(error.message, /not served by the process the lock names/);
    assert.match(error.fix, /never signals a process it cannot verify/);
    assert.equal(fake.dialled(), 0);
  } finally {
    fake.close();
    await served.stop();
    await Deno.remove(real, { recursive: true });
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * Runs `weft mcp` as an IDE would, sends `initialize` and a `flow` call carrying `intent`, and returns the
 * bridge's two answers once its stdin is closed and it has exited.
 */
async function bridgeOnce(
  dir: string,
  intent: string,
): Promise<{ id: number; error?: { message: string } }[]> {
  const bridge = spawnBridge(dir);
  const stdout = new StreamText(bridge.stdout, "the stdout of weft mcp");
  try {
    const writer = bridge.stdin.getWriter();
    const flow = {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "flow", arguments: { flowName: "intent", intent } },
    };
    await writer.write(new TextEncoder().encode(JSON.stringify(initializeRequest("ide")) + "\n"));
    const first = await stdout.until("\n");
    await writer.write(new TextEncoder().encode(JSON.stringify(flow) + "\n"));
    const second = await stdout.until("\n", first);
    await writer.close();
    await within("weft mcp to exit once its stdin closed", bridge.status);
    return [stdout.text.slice(0, first), stdout.text.slice(first, second)].map((line) => JSON.parse(line));
  } finally {
    await stdout.cancel();
    try {
      bridge.kill("SIGKILL");
    } catch {
      // ended, as it should
    }
    await bridge.status;
  }
}

Deno.test("the IDE bridge never forwards to a planted .weft/: its URL is not dialled, the intent goes nowhere", async () => {
  const other = await tempProject();
  const live = await serve(other);
  const fake = trap();
  const intent = "SECRET-INTENT rotate the production keys";
  try {
    const cases: [string, (dir: string) => Promise<void>, RegExp][] = [
      ["a checkout's modes", async (dir) => {
        await plant(dir, `http://127.0.0.1:${fake.port}`, fake.port, { dir: 0o755, file: 0o644 });
      }, /\.weft has mode 0755[\s\S]*mv \.weft \.weft\.untrusted/],
      ["a lock naming another project's live service", async (dir) => {
        await plant(dir, `http://127.0.0.1:${fake.port}`, fake.port, { dir: 0o700, file: 0o600 });
        for (const name of ["connection.json", "service.lock"]) {
          const path = `${dir}/.weft/${name}`;
          const value = JSON.parse(await Deno.readTextFile(path));
          await Deno.writeTextFile(path, JSON.stringify({ ...value, pid: live.pid }));
        }
      }, /could not start the weft service/],
    ];
    for (const [name, prepare, finding] of cases) {
      const dir = await tempProject();
      try {
        await prepare(dir);
        const before = await snapshot(dir);
        const [initialized, flowed] = await bridgeOnce(dir, intent);
        assert.match(initialized.error?.message ?? "", finding, `${name}: ${JSON.stringify(initialized)}`);
        assert.ok(flowed.error, `${name}: the flow call is refused, not forwarded`);
        assert.equal(fake.dialled(), 0, `${name}: the planted URL is never dialled`);
        // An archive's exact modes make state weft cannot tell from its own (it may add its .gitignore); the
        // files that name a service are never rewritten either way.
        const after = await snapshot(dir);
        for (const file of ["connection.json", "service.lock"]) {
          const path = `${dir}/.weft/${file}`;
          assert.equal(after[path], before[path], `${name}: ${file} unchanged`);
        }
        if (name === "a checkout's modes") assert.deepEqual(after, before, `${name}: nothing changed`);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    }

    // With exact modes and a lock naming pid 1 (an archive's leftovers), the bridge starts weft itself.
    const dir = await tempProject();
    let pid: number | undefined;
    try {
      await plant(dir, `http://127.0.0.1:${fake.port}`, fake.port, { dir: 0o700, file: 0o600 });
      const [initialized] = await bridgeOnce(dir, intent);
      assert.equal(initialized.error, undefined, "the bridge reached a weft it started");
      assert.equal(fake.dialled(), 0, "the planted URL is never dialled");
      const connection = JSON.parse(await Deno.readTextFile(`${dir}/.weft/connection.json`));
      assert.notEqual(connection.port, fake.port);
      pid = connection.pid;
      assert.equal((await runWeft(["stop", "--project", dir])).code, 0);
    } finally {
      if (pid !== undefined && isProcessAlive(pid)) Deno.kill(pid, "SIGKILL");
      await Deno.remove(dir, { recursive: true });
    }
  } finally {
    fake.close();
    await live.stop();
    await Deno.remove(other, { recursive: true });
  }
});
