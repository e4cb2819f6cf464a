/**
 * The TCP front in-process, on a clock the test controls: silent and quiet connections are closed after
 * their bounds, the cap makes room by closing silent connections first and refuses only when all have spoken,
 * and requests pass through unchanged.
 */

import assert from "node:assert/strict";
import { ConnectionGate } from "../../src/http/connection_gate.ts";
import { Logger } from "../../src/lib/logger.ts";
import { within } from "../support/deadline.ts";

async function withGate(
  maxConnections: number,
  test: (gate: ConnectionGate, port: number, clock: { now: number }) => Promise<void>,
  handler: (request: Request) => Response | Promise<Response> = () => new Response("hello"),
) {
  const folder = await Deno.makeTempDir();
  const path = `${folder}/http.sock`;
  const upstream = Deno.serve({ transport: "unix", path, onListen: () => {} }, handler);
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const clock = { now: 0 };
  const gate = new ConnectionGate(
    listener,
    path,
    { maxConnections, firstByteMs: 1_000, idleMs: 5_000 },
    Logger.silent(),
    () => clock.now,
  );
  try {
    await test(gate, listener.addr.port, clock);
  } finally {
    await gate.close();
    await upstream.shutdown();
    await Deno.remove(folder, { recursive: true });
  }
}

/** Waits until `condition` holds, failing with `what` after 10 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function isClosedByPeer(conn: Deno.Conn): Promise<boolean> {
  return (await conn.read(new Uint8Array(64)).catch(() => null)) === null;
}

async function get(conn: Deno.Conn): Promise<string> {
  await conn.write(new TextEncoder().encode("GET / HTTP/1.1\r\nhost: x\r\n\r\n"));
  const buffer = new Uint8Array(4096);
  const read = await conn.read(buffer);
  return new TextDecoder().decode(buffer.subarray(0, read ?? 0));
}

Deno.test("a connection silent past its first-byte bound, or quiet past the idle bound, is closed", async () => {
  await withGate(10, async (gate, port, clock) => {
    const silent = await Deno.connect({ hostname: "127.0.0.1", port });
    const talking = await Deno.connect({ hostname: "127.0.0.1", port });
    await until(() => gate.size === 2, "two accepted connections");
    assert.match(await get(talking), /hello$/);
    clock.now = 1_001;
    assert.equal(gate.sweep(), 1);
    assert.ok(await isClosedByPeer(silent), "the silent connection is closed");
    clock.now = 4_000;
    assert.equal(gate.sweep(), 0, "a connection that spoke has the longer idle bound");
    assert.match(await get(talking), /hello$/);
    clock.now = 9_001;
    assert.equal(gate.sweep(), 1);
    assert.ok(await isClosedByPeer(talking));
  });
});

Deno.test("at the cap a new connection replaces the oldest silent one, and is refused when all have spoken", async () => {
  await withGate(2, async (gate, port) => {
    const first = await Deno.connect({ hostname: "127.0.0.1", port });
    const second = await Deno.connect({ hostname: "127.0.0.1", port });
    await until(() => gate.size === 2, "two accepted connections");
    const third = await Deno.connect({ hostname: "127.0.0.1", port });
    assert.ok(await isClosedByPeer(first), "the oldest silent connection made room");
    assert.match(await get(third), /hello$/);
    assert.match(await get(second), /hello$/);
    assert.equal(gate.evicted, 1);
    const fourth = await Deno.connect({ hostname: "127.0.0.1", port });
    assert.ok(await isClosedByPeer(fourth), "no silent connection left: the new one is refused");
    assert.equal(gate.refused, 1);
    assert.match(await get(second), /hello$/, "the open connections go on");
    for (const conn of [second, third]) conn.close();
  });
});

Deno.test("an accept that fails (no descriptors left) is retried: the gate goes on and serves the next client", async () => {
  const folder = await Deno.makeTempDir();
  const path = `${folder}/http.sock`;
  const upstream = Deno.serve({ transport: "unix", path, onListen: () => {} }, () => new Response("hello"));
  const real = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let failures = 0;
  // What the accept loop sees when the process is out of descriptors: accept() rejects, again and again.
  const starved = {
    addr: real.addr,
    accept: () =>
      failures++ < 3 ? Promise.reject(new Error("Too many open files (os error 24)")) : real.accept(),
    close: () => real.close(),
  } as unknown as Deno.TcpListener;
  const gate = new ConnectionGate(
    starved,
    path,
    { maxConnections: 4, firstByteMs: 1_000, idleMs: 5_000 },
    Logger.silent(),
  );
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: real.addr.port });
    assert.match(await within("an answer after three failed accepts", get(conn)), /hello$/);
    assert.ok(failures >= 4, `three failures, then the accept that took the connection (${failures} calls)`);
    conn.close();
  } finally {
    await gate.close();
    await upstream.shutdown();
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("requests and answers many times a relay buffer's size pass through whole, byte for byte", async () => {
  // The upstream answers with the request's body reversed, so a byte lost, doubled or reordered shows.
  const echo = async (request: Request) =>
    new Response(new Uint8Array(await request.arrayBuffer()).reverse());
  await withGate(4, async (_gate, port) => {
    const body = new Uint8Array(300 * 1024).map((_, i) => (i * 7 + (i >> 10)) % 251);
    const response = await within(
      "the relayed answer",
      fetch(`http://127.0.0.1:${port}/`, { method: "POST", body }).then((answer) => answer.arrayBuffer()),
    );
    assert.deepEqual(new Uint8Array(response), body.toReversed());
  }, echo);
});
