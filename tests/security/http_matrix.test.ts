/**
 * The HTTP side of the security matrix, beyond tests/service: sessions moved across every pair of paths and
 * between token classes, every method behind the checks, and Origin/Host shapes of DNS rebinding.
 */

import assert from "node:assert/strict";
import { type ServedProject, tokenFor, withServedProject } from "../support/service.ts";
import { rawRequest } from "../support/raw_http.ts";
import { mcpHeaders, openRawSession } from "../support/jsonrpc.ts";

const PATHS = ["/mcp", "/mcp/codex", "/internal/mcp", "/internal/mcp/studio"];

/** Headers for a request on `path` with the token of its class and the session `id`. */
function sessionHeaders(served: ServedProject, path: string, id: string): Record<string, string> {
  return mcpHeaders(tokenFor(served, path), { "mcp-session-id": id });
}

async function status(served: ServedProject, path: string, method: string, head: Record<string, string>) {
  const response = await fetch(served.url + path, {
    method,
    headers: head,
    body: method === "POST" ? JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }) : undefined,
  });
  await response.body?.cancel();
  return response.status;
}

Deno.test("a session id opened on one path is 404 on every other path, for POST, GET and DELETE", async () => {
  await withServedProject(async (served) => {
    const sessions = new Map<string, string>();
    for (const path of PATHS) sessions.set(path, await openRawSession(served, path, "sec"));
    for (const [origin, id] of sessions) {
      for (const path of PATHS.filter((p) => p !== origin)) {
        for (const method of ["POST", "GET", "DELETE"]) {
          const code = await status(
            served,
            path,
            method,
            sessionHeaders(served, path, id),
          );
          assert.equal(code, 404, `${method} ${path} with a session of ${origin}`);
        }
      }
    }
    // The moves above ended nothing: each session still answers on its own path.
    for (const [path, id] of sessions) {
      assert.equal(
        await status(served, path, "POST", sessionHeaders(served, path, id)),
        200,
      );
    }
  });
});

Deno.test("a live session id with the other class's token is 401 on every method; it does not end the session", async () => {
  await withServedProject(async (served) => {
    const { externalToken, internalToken } = served.connection;
    for (const path of PATHS) {
      const id = await openRawSession(served, path, "sec");
      const wrong = path.startsWith("/internal") ? externalToken : internalToken;
      for (const method of ["POST", "GET", "DELETE"]) {
        assert.equal(
          await status(served, path, method, mcpHeaders(wrong, { "mcp-session-id": id })),
          401,
          `${method} ${path}`,
        );
        const missing = mcpHeaders(undefined, { "mcp-session-id": id });
        assert.equal(await status(served, path, method, missing), 401, `${method} ${path} without a token`);
      }
      assert.equal(
        await status(served, path, "POST", sessionHeaders(served, path, id)),
        200,
      );
    }
  });
});

Deno.test("DNS-rebinding shapes of Origin and Host are 403 on every path and method, even with a valid session", async () => {
  await withServedProject(async (served) => {
    const port = served.port;
    const origins = [
      `http://127.0.0.1.nip.io:${port}`,
      `http://localhost.evil.example:${port}`,
      `http://evil.example:${port}`,
      `http://[::1]:${port}`,
      `http://0.0.0.0:${port}`,
      `http://127.0.0.2:${port}`,
      `http://127.0.0.1:${port}@evil.example`,
      `file://`,
      `chrome-extension://abcdef`,
    ];
    const hosts = [
      `127.0.0.1:${port}.evil.example`,
      `evil@127.0.0.1:${port}`,
      `127.0.0.1:${port}:${port}`,
      `2130706433:${port}`,
      `0x7f000001:${port}`,
      `127.1:${port}`,
      `localhost.:${port}`,
      "",
    ];
    for (const path of PATHS) {
      const id = await openRawSession(served, path, "sec");
      const token = tokenFor(served, path);
      for (const method of ["POST", "GET", "DELETE"]) {
        for (const origin of origins) {
          const code = await status(
            served,
            path,
            method,
            mcpHeaders(token, { "mcp-session-id": id, origin }),
          );
          assert.equal(code, 403, `${method} ${path} Origin ${origin}`);
        }
        for (const host of hosts) {
          const response = await rawRequest(port, {
            method,
            path,
            headers: { ...mcpHeaders(token, { "mcp-session-id": id }), host },
            body: method === "POST" ? JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }) : undefined,
          });
          assert.equal(response.status, 403, `${method} ${path} Host "${host}"`);
          assert.match(response.body, /Host must be this service's loopback address/);
        }
      }
    }
  });
});
