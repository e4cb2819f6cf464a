/**
 * The Streamable HTTP session `weft mcp` keeps with the service, against a scripted server: the session id and
 * protocol version travel on every request, a request's stream that ends before its answer is resumed with
 * `Last-Event-ID`, and an HTTP error keeps its status (404 tells the bridge the service restarted).
 */
import assert from "node:assert/strict";
import { HttpSession, HttpStatusError, ServiceGoneError } from "../../src/client/http_session.ts";
import type { JSONRPCMessage } from "../../src/client/jsonrpc.ts";
import { within } from "../support/deadline.ts";

const sse = (text: string) => new TextEncoder().encode(text);
const EVENTS = { headers: { "content-type": "text/event-stream", "mcp-session-id": "sess-1" } };
const EVENTS_JSON = { headers: { "mcp-session-id": "sess-1" } };
/** The check before a token is sent after a break: here the service always still runs. */
const stillServes = () => Promise.resolve(true);

Deno.test("a request's stream that ends before its answer is resumed after its last event id, and answered once", async () => {
  const seen: { method: string; headers: Headers }[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (request) => {
    seen.push({ method: request.method, headers: request.headers });
    if (request.method === "POST") {
      // The priming event, then the stream ends before the answer (as a service closing it early would).
      return new Response(sse("id: 7.stream\ndata: \n\n"), EVENTS);
    }
    return new Response(
      sse('event: message\nid: 8.stream\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n'),
      EVENTS,
    );
  });
  const session = new HttpSession(new URL(`http://127.0.0.1:${server.addr.port}/mcp`), {
    authorization: "Bearer secret",
  }, stillServes);
  const received: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  const answered = new Promise<void>((resolve) => {
    session.onmessage = (message) => {
      received.push(message);
      resolve();
    };
  });
  session.onerror = (error) => errors.push(error);
  try {
    session.setProtocolVersion("2025-11-25");
    await session.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    await within("the answer through the resumed stream", answered);
    assert.deepEqual(received, [{ jsonrpc: "2.0", id: 1, result: {} }]);
    assert.deepEqual(errors, [], "a stream the service ended is no error");
    const [post, get] = seen;
    assert.equal(get.method, "GET");
    assert.equal(get.headers.get("last-event-id"), "7.stream");
    assert.equal(get.headers.get("mcp-session-id"), "sess-1", "the session id the POST's answer gave");
    for (const { headers } of [post, get]) {
      assert.equal(headers.get("authorization"), "Bearer secret");
      assert.equal(headers.get("mcp-protocol-version"), "2025-11-25");
    }
  } finally {
    await session.close();
    await server.shutdown();
  }
});

Deno.test("an HTTP error keeps its status; a service that offers no GET stream is left alone", async () => {
  const methods: string[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (request) => {
    methods.push(request.method);
    if (request.method === "GET") return new Response(null, { status: 405 });
    const message = await request.json();
    if (message.method === "notifications/initialized") return new Response(null, { status: 202 });
    return Response.json({
      jsonrpc: "2.0",
      id: message.id,
      error: { code: -32001, message: "Session not found" },
    }, {
      status: 404,
    });
  });
  const session = new HttpSession(new URL(`http://127.0.0.1:${server.addr.port}/mcp`), {
    authorization: "Bearer secret",
  }, stillServes);
  const errors: Error[] = [];
  session.onerror = (error) => errors.push(error);
  try {
    const failure = await session.send({ jsonrpc: "2.0", id: 2, method: "ping" }).catch((error) => error);
    assert.ok(failure instanceof HttpStatusError);
    assert.equal(failure.status, 404);
    assert.match(failure.message, /HTTP 404\): .*Session not found/);
    await session.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await within(
      "the GET stream's attempt",
      (async () => {
        while (!methods.includes("GET")) await new Promise((resolve) => setTimeout(resolve, 5));
      })(),
    );
    assert.deepEqual(errors, [], "405: no stream, and nothing to report");
  } finally {
    await session.close();
    await server.shutdown();
  }
});

Deno.test("an answer that can no longer come is reported lost: a stream ended with nothing to resume from, or resumes that all fail", async () => {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (request) => {
    if (request.method === "GET") return new Response(null, { status: 404 }); // a restarted service
    const message = await request.json();
    // Request 1's stream ends before any event; request 2's after its priming event (with a short retry).
    const events = message.id === 1 ? "" : "id: 7.stream\nretry: 10\ndata: \n\n";
    return new Response(sse(events), EVENTS);
  });
  const session = new HttpSession(new URL(`http://127.0.0.1:${server.addr.port}/mcp`), {
    authorization: "Bearer secret",
  }, stillServes);
  const lost: (string | number)[] = [];
  const errors: Error[] = [];
  let bothLost: () => void;
  const done = new Promise<void>((resolve) => bothLost = resolve);
  session.onlost = (id) => {
    lost.push(id);
    if (lost.length === 2) bothLost();
  };
  session.onerror = (error) => errors.push(error);
  try {
    await session.send({ jsonrpc: "2.0", id: 1, method: "tools/call" });
    await session.send({ jsonrpc: "2.0", id: 2, method: "tools/call" });
    await within(() => `both answers reported lost (lost: ${lost}, errors: ${errors.length})`, done, 5_000);
    assert.deepEqual(lost.toSorted(), [1, 2]);
    assert.equal(errors.length, 3, "request 2's three failed resumes are each reported");
  } finally {
    await session.close();
    await server.shutdown();
  }
});

Deno.test("closing the session reports the answers still awaited on a stream lost, and none already given", async () => {
  let streams = 0;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (request) => {
    const message = await request.json();
    // Request 1 is answered; request 2's stream stays open with no answer (a tool call that takes its time).
    const events = message.id === 1
      ? 'id: 1.a\ndata: \n\nevent: message\nid: 2.a\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n'
      : "id: 3.b\ndata: \n\n";
    streams++;
    return new Response(
      new ReadableStream({ start: (controller) => controller.enqueue(sse(events)) }),
      EVENTS,
    );
  });
  const session = new HttpSession(new URL(`http://127.0.0.1:${server.addr.port}/mcp`), {
    authorization: "Bearer secret",
  }, stillServes);
  const lost: (string | number)[] = [];
  let answered: () => void;
  const first = new Promise<void>((resolve) => answered = resolve);
  session.onmessage = () => answered();
  session.onlost = (id) => lost.push(id);
  try {
    await session.send({ jsonrpc: "2.0", id: 1, method: "tools/call" });
    await session.send({ jsonrpc: "2.0", id: 2, method: "tools/call" });
    await within("the answer to request 1", first);
    assert.equal(streams, 2);
    await session.close();
    assert.deepEqual(lost, [2], "only the request still waiting is owed an answer");
  } finally {
    await session.close();
    await server.shutdown();
  }
});

Deno.test("after a break the token goes nowhere until the same service is confirmed; to a gone one, nothing more", async () => {
  const requests: string[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (request) => {
    requests.push(request.method);
    // The priming event, then the stream ends before the answer: the service may have gone away.
    return new Response(sse("id: 7.stream\ndata: \n\n"), EVENTS);
  });
  let checks = 0;
  // Another program may hold the port now: the check says the service the session was opened with is gone.
  const session = new HttpSession(new URL(`http://127.0.0.1:${server.addr.port}/mcp`), {
    authorization: "Bearer secret",
  }, () => {
    checks++;
    return Promise.resolve(false);
  });
  let reported: () => void;
  const lost = new Promise<void>((resolve) => reported = resolve);
  session.onlost = () => reported();
  try {
    await session.send({ jsonrpc: "2.0", id: 1, method: "tools/call" });
    await within("the answer reported lost", lost);
    assert.equal(checks, 1, "the resume asked first");
    await assert.rejects(session.send({ jsonrpc: "2.0", id: 2, method: "ping" }), ServiceGoneError);
    await assert.rejects(session.terminateSession(), ServiceGoneError);
    assert.deepEqual(requests, ["POST"], "no resume, no message and no DELETE reached the port");
  } finally {
    await session.close();
    await server.shutdown();
  }
});

Deno.test("ending the session does not wait forever for a service that hangs", async () => {
  let release!: () => void;
  const hung = new Promise<void>((resolve) => release = resolve);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (request) => {
    if (request.method === "DELETE") {
      await hung;
      return new Response(null, { status: 200 });
    }
    return Response.json({ jsonrpc: "2.0", id: 1, result: {} }, EVENTS_JSON);
  });
  const session = new HttpSession(new URL(`http://127.0.0.1:${server.addr.port}/mcp`), {
    authorization: "Bearer secret",
  }, stillServes);
  try {
    await session.send({ jsonrpc: "2.0", id: 1, method: "initialize" });
    assert.equal(session.sessionId, "sess-1");
    await within("the DELETE to give up", assert.rejects(session.terminateSession()));
  } finally {
    release();
    await session.close();
    await server.shutdown();
  }
});

Deno.test("the session's own stream, given up after its tries, opens again on listen() from its last event", async () => {
  const gets: (string | null)[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (request) => {
    if (request.method === "POST") return new Response(null, { status: 202, headers: EVENTS_JSON.headers });
    gets.push(request.headers.get("last-event-id"));
    const note = (uri: string) =>
      `event: message\nid: ${gets.length}.g\ndata: {"jsonrpc":"2.0","method":"n","params":{"uri":"${uri}"}}\n\n`;
    // The first stream carries one event and breaks; the next two opens are refused (the service still holds
    // the broken one); the one after works.
    if (gets.length === 1) return new Response(sse(note("first")), EVENTS);
    if (gets.length <= 3) return new Response(null, { status: 409 });
    return new Response(sse(note("again")), EVENTS);
  });
  const session = new HttpSession(new URL(`http://127.0.0.1:${server.addr.port}/mcp`), {
    authorization: "Bearer secret",
  }, stillServes);
  const uris: string[] = [];
  let errors = 0;
  let gaveUp!: () => void;
  const given = new Promise<void>((resolve) => gaveUp = resolve);
  let heard!: () => void;
  const again = new Promise<void>((resolve) => heard = resolve);
  session.onerror = () => ++errors === 3 && gaveUp();
  session.onmessage = (message) => {
    uris.push((message as unknown as { params: { uri: string } }).params.uri);
    if (uris.includes("again")) heard();
  };
  try {
    await session.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await within("the stream to give up after its tries", given);
    session.listen();
    await within("the stream opened again", again);
    assert.deepEqual(uris, ["first", "again"]);
    assert.deepEqual(gets, [null, "1.g", "1.g", "1.g"], "every reopen resumes after the last event");
  } finally {
    await session.close();
    await server.shutdown();
  }
});
