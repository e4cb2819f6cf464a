/**
 * A session whose event stream is open must still expire once its client is gone. The keep-alive tick is
 * driven by the test (`SessionTable.keepAlive()`), and the table's clock is the test's, so nothing here
 * waits on real time: a client that closed its socket, and one that stopped reading, each end their stream
 * within two ticks, after which the session is idle and the next sweep past the idle bound closes it.
 */

import assert from "node:assert/strict";
import { createHandler } from "../../src/http/handler.ts";
import { serveOnLoopback } from "../../src/http/loopback_server.ts";
import { DEFAULT_SESSION_LIMITS, SessionTable } from "../../src/http/sessions.ts";
import { defaultConnectionLimits } from "../../src/http/connection_gate.ts";
import { ENDPOINTS } from "../../src/mcp/endpoints.ts";
import { Logger } from "../../src/lib/logger.ts";
import { within } from "../support/deadline.ts";
import { mcpHeaders, PROTOCOL_VERSION } from "../support/jsonrpc.ts";
import { INITIALIZE, openEventStream, openSession, tableOn } from "../support/session_table.ts";

const TOKEN = "e".repeat(43);
const IDLE_MS = 1000;

/** Ticks the table's keep-alive until no stream is open, yielding between ticks so the I/O can happen. */
async function tickUntilNoStream(table: SessionTable): Promise<number> {
  let ticks = 0;
  await within(
    () => `the stream to end (${ticks} ticks, ${table.streams} streams open)`,
    (async () => {
      while (table.keepAlive() > 0) {
        ticks++;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })(),
  );
  return ticks;
}

/** Writes one raw HTTP/1.1 request on `conn` and reads until `until` appears; returns what was read. */
async function exchange(conn: Deno.Conn, head: string, body: string, until: RegExp): Promise<string> {
  const bytes = new TextEncoder().encode(body);
  await conn.write(new TextEncoder().encode(`${head}\r\ncontent-length: ${bytes.length}\r\n\r\n`));
  if (bytes.length) await conn.write(bytes);
  let text = "";
  const buffer = new Uint8Array(16 * 1024);
  await within(
    () => `an answer matching ${until} (read so far: ${JSON.stringify(text)})`,
    (async () => {
      while (!until.test(text)) {
        const read = await conn.read(buffer);
        if (read === null) throw new Error(`connection closed after ${JSON.stringify(text)}`);
        text += new TextDecoder().decode(buffer.subarray(0, read));
      }
    })(),
  );
  return text;
}

function requestHead(method: string, port: number, headers: Record<string, string>): string {
  return [`${method} /mcp HTTP/1.1`, `host: 127.0.0.1:${port}`]
    .concat(Object.entries(headers).map(([name, value]) => `${name}: ${value}`)).join("\r\n");
}

Deno.test("keep-alive: a GET stream whose client closed its socket ends, and its session then expires", async () => {
  let now = 0;
  const table = tableOn(() => now, { idleMs: IDLE_MS });
  let port = 0;
  const handler = createHandler({
    tokens: { external: TOKEN, internal: "i".repeat(43) },
    port: () => port,
    sessions: table,
  });
  // The real path of a request: the TCP gate, the relay socket, Deno.serve, the handler's checks.
  const server = await serveOnLoopback(handler, { port: 0, logger: Logger.silent() });
  port = server.port;
  try {
    const opener = await Deno.connect({ hostname: "127.0.0.1", port });
    const answer = await exchange(
      opener,
      requestHead("POST", port, mcpHeaders(TOKEN)),
      JSON.stringify(INITIALIZE),
      /\r\n0\r\n\r\n/,
    );
    opener.close();
    const session = /mcp-session-id: (\S+)/i.exec(answer)?.[1];
    assert.ok(session, `initialize answered a session id: ${answer}`);

    const client = await Deno.connect({ hostname: "127.0.0.1", port });
    const head = await exchange(
      client,
      requestHead("GET", port, {
        authorization: `Bearer ${TOKEN}`,
        accept: "text/event-stream",
        "mcp-session-id": session,
        "mcp-protocol-version": PROTOCOL_VERSION,
      }),
      "",
      /\r\n\r\n/,
    );
    assert.match(head, /^HTTP\/1\.1 200/);
    assert.equal(table.streams, 1, "the GET stream is open");

    now = 10 * IDLE_MS;
    assert.equal(await table.sweep(), 0, "an open stream keeps its session, however long");
    // The client goes away without a word: no DELETE, no FIN of the stream, just its socket closed.
    client.close();
    const ticks = await tickUntilNoStream(table);
    assert.ok(ticks >= 1, "the stream ended on a keep-alive write, not by itself");

    now += IDLE_MS + 1;
    assert.equal(await table.sweep(), 1, "the session, no longer streaming, expires");
    assert.equal(table.size, 0);
  } finally {
    await table.closeAll();
    await server.shutdown();
  }
});

Deno.test("keep-alive: a stream its client stopped reading is cut after a whole tick unread", async () => {
  let now = 0;
  const table = tableOn(() => now, { idleMs: IDLE_MS });
  const endpoint = ENDPOINTS[0];
  try {
    const stream = await openEventStream(table, endpoint, await openSession(table, endpoint));
    assert.equal(stream.status, 200);
    // Never read: the first tick queues a comment, the second finds it still there.
    assert.equal(table.keepAlive(), 1, "the first tick sends a comment");
    assert.equal(table.keepAlive(), 0, "the second tick finds it unread and cuts the stream");
    await assert.rejects(stream.body!.getReader().read(), /keep-alive interval/);
    now = IDLE_MS + 1;
    assert.equal(await table.sweep(), 1);
  } finally {
    await table.closeAll();
  }
});

Deno.test("keep-alive: a quiet stream that is read gets comments and stays open, its session with it", async () => {
  let now = 0;
  const table = tableOn(() => now, { idleMs: IDLE_MS });
  const endpoint = ENDPOINTS[0];
  try {
    const stream = await openEventStream(table, endpoint, await openSession(table, endpoint));
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (let tick = 0; tick < 5; tick++) {
      assert.equal(table.keepAlive(), 1, `tick ${tick} keeps the stream open`);
      const { value } = await within("a keep-alive comment", reader.read());
      assert.equal(value, ": keep-alive\n\n");
    }
    now = 10 * IDLE_MS;
    assert.equal(await table.sweep(), 0, "a stream that is read keeps its session");
    await reader.cancel();
    assert.equal(table.streams, 0);
  } finally {
    await table.closeAll();
  }
});

Deno.test("keep-alive: an open stream's comments come well within the gate's idle bound for a connection", () => {
  const keepAliveMs = DEFAULT_SESSION_LIMITS.keepAliveMs!;
  assert.ok(
    defaultConnectionLimits().idleMs >= 4 * keepAliveMs,
    "a quiet stream that is read is never closed as an idle connection",
  );
  assert.ok(
    defaultConnectionLimits().idleMs <= 5 * 60 * 1000,
    "a connection nobody uses is closed within minutes",
  );
});
