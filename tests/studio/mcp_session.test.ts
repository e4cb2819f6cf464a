/**
 * The page's MCP session without the SDK, against a scripted server: `initialize` then
 * `notifications/initialized`, the negotiated version and the page's credentials on every later request,
 * answers matched to their requests by id (a JSON-RPC error rejects), the service's notifications from the
 * GET stream handed on, and that stream's end reported as a broken session (the page then opens a new one).
 * A session the service opened but that fails to finish opening is ended there (DELETE), not left for its
 * idle hour. A 401 keeps its status (the page reads it as the Studio session ended); a request left unanswered
 * past the answer deadline is lost, so the page opens a new session instead of waiting for ever.
 */
import assert from "node:assert/strict";
import { HttpStatusError } from "../../src/client/http_session.ts";
import { AnswerError, AnswerLostError, McpSession } from "../../src/studio/page/mcp_session.ts";
import { within } from "../support/deadline.ts";

const TAB = { "x-weft-tab": "tab-1" };

Deno.test("studio mcp session: initialized with the page's credentials, answers by id, notifications, a broken stream", async () => {
  const seen: { method: string; rpc?: string; headers: Headers }[] = [];
  let endStream: () => void = () => {};
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (request) => {
    if (request.method === "GET") {
      seen.push({ method: "GET", headers: request.headers });
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(
            'id: 1\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/resources/updated",' +
              '"params":{"uri":"weft://runs"}}\n\n',
          ));
          endStream = () => controller.close();
        },
      });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }
    const message = await request.json();
    seen.push({ method: request.method, rpc: message.method, headers: request.headers });
    const headers = { "mcp-session-id": "sess-1" };
    if (message.method === "notifications/initialized") return new Response(null, { status: 202, headers });
    if (message.method === "initialize") {
      return Response.json({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: "2025-06-18" } }, {
        headers,
      });
    }
    if (message.method === "resources/read") {
      return Response.json({
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32002, message: "no such Run" },
      }, {
        headers,
      });
    }
    return Response.json({ jsonrpc: "2.0", id: message.id, result: { echoed: message.params } }, { headers });
  });
  const session = await McpSession.open(new URL(`http://127.0.0.1:${server.addr.port}/mcp`), TAB);
  try {
    const notified = new Promise<unknown>((resolve) => {
      session.onNotification = (method, params) => resolve({ method, params });
    });
    const broken = new Promise<void>((resolve) => session.onBroken = () => resolve());
    assert.deepEqual(await within("the notification", notified), {
      method: "notifications/resources/updated",
      params: { uri: "weft://runs" },
    });
    const [first, second] = await Promise.all([
      session.request("tools/call", { name: "a" }),
      session.request("tools/call", { name: "b" }),
    ]);
    assert.deepEqual([first, second], [{ echoed: { name: "a" } }, { echoed: { name: "b" } }]);
    await assert.rejects(session.request("resources/read", { uri: "weft://runs/x" }), (error) => {
      assert.ok(error instanceof AnswerError);
      assert.equal(error.code, -32002);
      assert.match(error.message, /no such Run/);
      return true;
    });
    assert.deepEqual(seen.slice(0, 2).map(({ rpc }) => rpc), ["initialize", "notifications/initialized"]);
    for (const { headers } of seen) assert.equal(headers.get("x-weft-tab"), "tab-1");
    for (const { headers } of seen.slice(1)) {
      assert.equal(headers.get("mcp-session-id"), "sess-1");
      assert.equal(headers.get("mcp-protocol-version"), "2025-06-18", "the version the service answered");
    }
    assert.equal(session.broken, false);
    endStream();
    await within("the broken stream reported", broken);
    assert.equal(session.broken, true);
  } finally {
    await session.close();
    await server.shutdown();
  }
});

Deno.test("studio mcp session: a 401 on initialize keeps its status, so the page can tell an ended session", async () => {
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () => new Response("no session", { status: 401 }),
  );
  try {
    await assert.rejects(
      McpSession.open(new URL(`http://127.0.0.1:${server.addr.port}/mcp`), TAB),
      (error) => {
        assert.ok(error instanceof HttpStatusError);
        assert.equal(error.status, 401);
        return true;
      },
    );
  } finally {
    await server.shutdown();
  }
});

Deno.test("studio mcp session: opened on the service but failing to finish, it is ended there", async () => {
  const seen: string[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (request) => {
    const headers = { "mcp-session-id": "sess-1" };
    if (request.method === "DELETE") {
      seen.push(`DELETE ${request.headers.get("mcp-session-id")}`);
      return new Response(null, { status: 200 });
    }
    const message = await request.json();
    seen.push(message.method);
    if (message.method === "initialize") {
      return Response.json({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: "2025-06-18" } }, {
        headers,
      });
    }
    return new Response("the service broke", { status: 500 });
  });
  try {
    await assert.rejects(McpSession.open(new URL(`http://127.0.0.1:${server.addr.port}/mcp`), TAB));
    assert.deepEqual(seen, ["initialize", "notifications/initialized", "DELETE sess-1"]);
  } finally {
    await server.shutdown();
  }
});

Deno.test("studio mcp session: a request the service leaves unanswered is lost after the answer deadline", async () => {
  // The POST's event stream opens and stays silent: the service took the request and never answers it.
  const silent: ReadableStreamDefaultController<Uint8Array>[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (request) => {
    const headers = { "mcp-session-id": "sess-1" };
    if (request.method === "GET") return new Response(null, { status: 405 });
    const message = await request.json();
    if (message.method === "notifications/initialized") return new Response(null, { status: 202, headers });
    if (message.method === "initialize" && message.params?.clientInfo?.name === "weft-studio") {
      if (request.headers.get("x-weft-tab") === "silent") {
        return new Response(new ReadableStream({ start: (c) => void silent.push(c) }), {
          headers: { ...headers, "content-type": "text/event-stream" },
        });
      }
      return Response.json({ jsonrpc: "2.0", id: message.id, result: { protocolVersion: "2025-06-18" } }, {
        headers,
      });
    }
    return new Response(new ReadableStream({ start: (c) => void silent.push(c) }), {
      headers: { ...headers, "content-type": "text/event-stream" },
    });
  });
  const url = new URL(`http://127.0.0.1:${server.addr.port}/mcp`);
  const session = await McpSession.open(url, TAB, { answerWithinMs: 50 });
  try {
    await within(
      "the unanswered call rejected",
      assert.rejects(session.request("tools/call", { name: "status" }), (error) => {
        assert.ok(error instanceof AnswerLostError, "the page treats it as a lost answer and reconnects");
        assert.match(error.message, /no answer within 0\.05 s/);
        return true;
      }),
    );
    // Opening a session waits no longer than one answer: the page tries again instead of hanging.
    await within(
      "the unanswered initialize rejected",
      assert.rejects(
        McpSession.open(url, { "x-weft-tab": "silent" }, { answerWithinMs: 50 }),
        AnswerLostError,
      ),
    );
  } finally {
    await session.close();
    for (const stream of silent) stream.close();
    await server.shutdown();
  }
});
