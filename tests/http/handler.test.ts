/**
 * The HTTP checks, in process against the service's `(Request) => Promise<Response>` handler: routing,
 * bearer tokens per endpoint class, Host, Origin, body size and JSON, and sessions bound to the path that
 * opened them. (A few of the same checks run over real HTTP in tests/http/http_checks.test.ts.)
 */

import assert from "node:assert/strict";
import { createHandler } from "../../src/http/handler.ts";
import { MAX_BODY_BYTES } from "../../src/http/checks.ts";
import { DEFAULT_SESSION_LIMITS, SessionTable } from "../../src/http/sessions.ts";
import { Server } from "../../src/mcp/sdk.ts";
import { Logger } from "../../src/lib/logger.ts";
import { initializeRequest, mcpHeaders } from "../support/jsonrpc.ts";

const PORT = 41_000;
const EXTERNAL = "e".repeat(43);
const INTERNAL = "i".repeat(43);
const PATHS = ["/mcp", "/mcp/codex", "/internal/mcp", "/internal/mcp/studio"];
const INITIALIZE = JSON.stringify(initializeRequest("in-process"));

/** A handler over a real session table whose sessions are bare MCP servers; `close` ends them all. */
function handler(maxSessions = DEFAULT_SESSION_LIMITS.maxSessions) {
  const sessions = new SessionTable(
    { ...DEFAULT_SESSION_LIMITS, maxSessions },
    () => ({ server: new Server({ name: "t", version: "0" }, { capabilities: { tools: {} } }) }),
    Logger.silent(),
  );
  const handle = createHandler({
    tokens: { external: EXTERNAL, internal: INTERNAL },
    port: () => PORT,
    sessions,
  });
  return { handle, close: () => sessions.closeAll() };
}

function tokenOf(path: string): string {
  return path.startsWith("/internal") ? INTERNAL : EXTERNAL;
}

/** A request as a client on this machine sends it: loopback Host, the path's token unless `headers` say. */
function request(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: BodyInit | null } = {},
): Request {
  const method = options.method ?? "POST";
  return new Request(`http://127.0.0.1:${PORT}${path}`, {
    method,
    headers: { host: `127.0.0.1:${PORT}`, ...mcpHeaders(tokenOf(path)), ...options.headers },
    body: method === "POST" ? options.body ?? INITIALIZE : null,
  });
}

async function statusOf(response: Promise<Response>): Promise<number> {
  const answered = await response;
  await answered.body?.cancel();
  return answered.status;
}

async function openSession(handle: (request: Request) => Promise<Response>, path: string): Promise<string> {
  const response = await handle(request(path));
  await response.body?.cancel();
  assert.equal(response.status, 200, `initialize on ${path}`);
  return response.headers.get("mcp-session-id")!;
}

Deno.test("handler: unknown paths are 404 before any other check", async () => {
  const { handle, close } = handler();
  try {
    for (const path of ["/", "/mcp/", "/MCP", "/internal", "/internal/mcp/other", "/mcp/codex/x"]) {
      assert.equal(await statusOf(handle(request(path, { headers: { authorization: "" } }))), 404, path);
    }
  } finally {
    await close();
  }
});

Deno.test("handler: missing, wrong, Basic and other-class tokens are 401 on every endpoint, and never echoed", async () => {
  const { handle, close } = handler();
  try {
    for (const path of PATHS) {
      const own = tokenOf(path);
      const other = own === EXTERNAL ? INTERNAL : EXTERNAL;
      for (
        const authorization of [
          "",
          `Bearer ${"x".repeat(43)}`,
          `Bearer ${other}`,
          `Basic ${btoa(`weft:${own}`)}`,
          own,
          `Bearer ${own}x`,
        ]
      ) {
        const response = await handle(request(path, { headers: { authorization } }));
        const body = await response.text();
        assert.equal(response.status, 401, `${path} with ${JSON.stringify(authorization.slice(0, 8))}`);
        assert.equal(response.headers.get("www-authenticate"), 'Bearer realm="weft"');
        assert.ok(!body.includes(own) && !body.includes(other), "a refusal never echoes a token");
      }
      assert.equal(await statusOf(handle(request(path))), 200, `${path} with its own token`);
    }
  } finally {
    await close();
  }
});

Deno.test("handler: a Host other than the loopback address and port is 403, before the body is read", async () => {
  const { handle, close } = handler();
  try {
    for (
      const host of [
        "evil.example",
        `evil.example:${PORT}`,
        `127.0.0.1:${PORT + 1}`,
        "127.0.0.1",
        `127.0.0.1.nip.io:${PORT}`,
        `[::1]:${PORT}`,
        `0.0.0.0:${PORT}`,
        "",
      ]
    ) {
      const response = await handle(request("/mcp", { headers: { host }, body: "{ not json" }));
      assert.equal(response.status, 403, host);
      assert.match((await response.json()).error.message, /Host must be this service's loopback address/);
    }
    for (const host of [`127.0.0.1:${PORT}`, `localhost:${PORT}`, `LOCALHOST:${PORT}`]) {
      assert.equal(await statusOf(handle(request("/mcp", { headers: { host } }))), 200, host);
    }
  } finally {
    await close();
  }
});

Deno.test("handler: an Origin that is present and not the service's own loopback origin is 403", async () => {
  const { handle, close } = handler();
  try {
    for (
      const origin of [
        "https://evil.example",
        "null",
        `http://127.0.0.1:${PORT + 1}`,
        `https://127.0.0.1:${PORT}`,
        `http://127.0.0.1.nip.io:${PORT}`,
        "file://",
      ]
    ) {
      const response = await handle(request("/mcp", { headers: { origin } }));
      assert.equal(response.status, 403, origin);
      assert.match((await response.json()).error.message, /Origin is not allowed/);
    }
    for (const origin of [`http://127.0.0.1:${PORT}`, `http://localhost:${PORT}`]) {
      assert.equal(await statusOf(handle(request("/mcp", { headers: { origin } }))), 200, origin);
    }
  } finally {
    await close();
  }
});

Deno.test("handler: bodies over the cap are 413, declared or streamed; malformed JSON is a -32700 parse error", async () => {
  const { handle, close } = handler();
  try {
    const declared = request("/mcp", {
      headers: { "content-length": String(MAX_BODY_BYTES + 1) },
      body: "x".repeat(MAX_BODY_BYTES + 1),
    });
    assert.equal(await statusOf(handle(declared)), 413);
    // No Content-Length can announce a stream: the cap is enforced while reading.
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(1024 * 1024).fill(32));
        controller.close();
      },
    });
    assert.equal(await statusOf(handle(request("/mcp", { body: streamed }))), 413);
    const exact = JSON.stringify(initializeRequest("in-process")).padEnd(MAX_BODY_BYTES, " ");
    assert.equal(await statusOf(handle(request("/mcp", { body: exact }))), 200, "exactly the cap is fine");

    const malformed = await handle(request("/mcp", { body: "{ not json" }));
    assert.equal(malformed.status, 400);
    assert.equal((await malformed.json()).error.code, -32700);
  } finally {
    await close();
  }
});

Deno.test("handler: a session id answers only on the path that opened it; elsewhere it is 404, for every method", async () => {
  const { handle, close } = handler();
  try {
    const sessions = new Map<string, string>();
    for (const path of PATHS) sessions.set(path, await openSession(handle, path));
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" });
    for (const [opener, id] of sessions) {
      for (const path of PATHS.filter((other) => other !== opener)) {
        for (const method of ["POST", "GET", "DELETE"]) {
          const moved = request(path, { method, headers: { "mcp-session-id": id }, body: ping });
          assert.equal(await statusOf(handle(moved)), 404, `${method} ${path} with a session of ${opener}`);
        }
      }
    }
    for (const [path, id] of sessions) {
      const own = request(path, { headers: { "mcp-session-id": id }, body: ping });
      assert.equal(await statusOf(handle(own)), 200, `the session still answers on ${path}`);
    }
    const never = request("/mcp", { headers: { "mcp-session-id": "never-issued" }, body: ping });
    assert.equal(await statusOf(handle(never)), 404);
  } finally {
    await close();
  }
});

Deno.test("handler: past the session cap an initialize is 503 with Retry-After; a request before initialize is 400", async () => {
  const { handle, close } = handler(1);
  try {
    await openSession(handle, "/mcp");
    const refused = await handle(request("/mcp/codex"));
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get("retry-after"), "5");
    assert.match(
      (await refused.json()).error.message,
      /Too many open MCP sessions on the external endpoints \(limit 1\)/,
    );
    const early = await handle(
      request("/mcp", { body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }) }),
    );
    assert.equal(early.status, 400);
    assert.match((await early.json()).error.message, /send initialize first/);
  } finally {
    await close();
  }
});
