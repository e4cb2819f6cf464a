/**
 * The HTTP checks of a real service: routing, bearer tokens per endpoint class, Host, Origin, body size.
 */

import assert from "node:assert/strict";
import { withServedProject } from "../support/service.ts";
import { rawRequest } from "../support/raw_http.ts";
import { initializeRequest, mcpHeaders } from "../support/jsonrpc.ts";

const PATHS = ["/mcp", "/mcp/codex", "/internal/mcp", "/internal/mcp/studio"];

const INITIALIZE = JSON.stringify(initializeRequest("raw"));

function post(url: string, headers: Record<string, string>, body = INITIALIZE): Promise<Response> {
  return fetch(url, { method: "POST", headers: mcpHeaders(undefined, headers), body });
}

Deno.test("every endpoint refuses missing, wrong, Basic and other-class tokens with 401", async () => {
  await withServedProject(async (served) => {
    const { externalToken, internalToken } = served.connection;
    for (const path of PATHS) {
      const own = path.startsWith("/internal") ? internalToken : externalToken;
      const other = path.startsWith("/internal") ? externalToken : internalToken;
      const refused: Record<string, string>[] = [
        {},
        { authorization: `Bearer ${"x".repeat(43)}` },
        { authorization: `Bearer ${other}` },
        { authorization: `Basic ${btoa(`weft:${own}`)}` },
        { authorization: own },
        { authorization: `Bearer ${own}x` },
      ];
      for (const headers of refused) {
        const response = await post(served.url + path, headers);
        const body = await response.text();
        assert.equal(response.status, 401, `${path} with ${JSON.stringify(Object.keys(headers))}`);
        assert.ok(!body.includes(own) && !body.includes(other), "a refusal never echoes a token");
      }
      const accepted = await post(served.url + path, { authorization: `Bearer ${own}` });
      assert.equal(accepted.status, 200, path);
      await accepted.body?.cancel();
    }
  });
});

Deno.test("unknown paths are 404 before any other check", async () => {
  await withServedProject(async (served) => {
    for (const path of ["/", "/mcp/", "/MCP", "/internal", "/internal/mcp/other", "/mcp/codex/x"]) {
      const response = await post(served.url + path, {
        authorization: `Bearer ${served.connection.externalToken}`,
      });
      assert.equal(response.status, 404, path);
      await response.body?.cancel();
    }
  });
});

Deno.test("a Host other than the loopback address and port is 403, including DNS-rebinding shapes", async () => {
  await withServedProject(async (served) => {
    const base = mcpHeaders(served.connection.externalToken);
    for (
      const host of [
        "evil.example",
        `evil.example:${served.port}`,
        `127.0.0.1:${served.port + 1}`,
        "127.0.0.1",
        `127.0.0.1.nip.io:${served.port}`,
        `[::1]:${served.port}`,
        `0.0.0.0:${served.port}`,
      ]
    ) {
      const response = await rawRequest(served.port, {
        method: "POST",
        path: "/mcp",
        headers: { ...base, host },
        body: INITIALIZE,
      });
      assert.equal(response.status, 403, host);
    }
    for (const host of [`127.0.0.1:${served.port}`, `localhost:${served.port}`]) {
      const response = await rawRequest(served.port, {
        method: "POST",
        path: "/mcp",
        headers: { ...base, host },
        body: INITIALIZE,
      });
      assert.equal(response.status, 200, host);
    }
  });
});

Deno.test("an Origin that is present and not the service's own loopback origin is 403", async () => {
  await withServedProject(async (served) => {
    const authorization = `Bearer ${served.connection.externalToken}`;
    for (
      const origin of [
        "https://evil.example",
        "null",
        `http://127.0.0.1:${served.port + 1}`,
        `https://127.0.0.1:${served.port}`,
      ]
    ) {
      const response = await post(served.url + "/mcp", { authorization, origin });
      assert.equal(response.status, 403, origin);
      await response.body?.cancel();
    }
    const own = await post(served.url + "/mcp", { authorization, origin: `http://127.0.0.1:${served.port}` });
    assert.equal(own.status, 200);
    await own.body?.cancel();
  });
});

Deno.test("bodies over 4 MiB are 413 and malformed JSON is a parse error; the service keeps serving", async () => {
  await withServedProject(async (served) => {
    const authorization = `Bearer ${served.connection.externalToken}`;
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "ping",
      params: { pad: "x".repeat(4 * 1024 * 1024) },
    });
    const tooLarge = await post(served.url + "/mcp", { authorization }, huge);
    assert.equal(tooLarge.status, 413);
    await tooLarge.body?.cancel();

    // Chunked, so no Content-Length can announce it: the cap is enforced while reading.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(1024 * 1024).fill(32));
        controller.close();
      },
    });
    const streamed = await fetch(served.url + "/mcp", {
      method: "POST",
      headers: mcpHeaders(served.connection.externalToken),
      body: chunks,
    });
    assert.equal(streamed.status, 413);
    await streamed.body?.cancel();

    const malformed = await post(served.url + "/mcp", { authorization }, "{ not json");
    assert.equal(malformed.status, 400);
    assert.equal((await malformed.json()).error.code, -32700);

    const fine = await post(served.url + "/mcp", { authorization });
    assert.equal(fine.status, 200);
    await fine.body?.cancel();
  });
});
