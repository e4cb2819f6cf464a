/**
 * The HTTP checks over real HTTP, one case of each against a running service: what the in-process tests in
 * tests/http/handler.test.ts prove case by case must also hold through `Deno.serve` and a real socket (a
 * forged Host needs raw TCP; a chunked body has no Content-Length to refuse by).
 */

import assert from "node:assert/strict";
import { withServedProject } from "../support/service.ts";
import { rawRequest } from "../support/raw_http.ts";
import { initializeRequest, mcpHeaders } from "../support/jsonrpc.ts";

const INITIALIZE = JSON.stringify(initializeRequest("raw"));

function post(url: string, headers: Record<string, string>, body: BodyInit = INITIALIZE): Promise<Response> {
  return fetch(url, { method: "POST", headers: mcpHeaders(undefined, headers), body });
}

async function statusOf(response: Promise<Response>): Promise<number> {
  const answered = await response;
  await answered.body?.cancel();
  return answered.status;
}

Deno.test("over real HTTP: 404, 401, 403 for Host and Origin, 413 for a chunked body, then 200 for a good request", async () => {
  await withServedProject(async (served) => {
    const { externalToken, internalToken } = served.connection;
    const authorization = `Bearer ${externalToken}`;
    assert.equal(await statusOf(post(`${served.url}/mcp/`, { authorization })), 404);
    assert.equal(await statusOf(post(`${served.url}/mcp`, {})), 401, "no token");
    assert.equal(
      await statusOf(post(`${served.url}/internal/mcp`, { authorization })),
      401,
      "the other class",
    );

    const forged = await rawRequest(served.port, {
      method: "POST",
      path: "/mcp",
      headers: { ...mcpHeaders(externalToken), host: `evil.example:${served.port}` },
      body: INITIALIZE,
    });
    assert.equal(forged.status, 403, "a forged Host");
    const origin = "https://evil.example";
    assert.equal(
      await statusOf(post(`${served.url}/mcp`, { authorization, origin })),
      403,
      "a foreign Origin",
    );

    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(1024 * 1024).fill(32));
        controller.close();
      },
    });
    assert.equal(await statusOf(post(`${served.url}/mcp`, { authorization }, chunks)), 413);

    for (const [path, token] of [["/mcp", externalToken], ["/internal/mcp", internalToken]]) {
      const own = `http://localhost:${served.port}${path}`;
      assert.equal(
        await statusOf(
          post(own, { authorization: `Bearer ${token}`, origin: `http://localhost:${served.port}` }),
        ),
        200,
        `${path} still serves`,
      );
    }
  });
});

Deno.test("over real HTTP: a body is read no further than its declared Content-Length, so the cap holds on it", async () => {
  await withServedProject(async (served) => {
    // The whole initialize is sent, but only its first 20 bytes are declared: what the service parses is those
    // 20 bytes (not JSON), never the rest; the bytes after them are no part of this request.
    const head = [
      "POST /mcp HTTP/1.1",
      "connection: close",
      ...Object.entries(mcpHeaders(served.connection.externalToken)).map(([name, value]) =>
        `${name}: ${value}`
      ),
      `host: 127.0.0.1:${served.port}`,
      "content-length: 20",
    ].join("\r\n");
    const connection = await Deno.connect({ hostname: "127.0.0.1", port: served.port });
    let text = "";
    try {
      await connection.write(new TextEncoder().encode(`${head}\r\n\r\n${INITIALIZE}`));
      const buffer = new Uint8Array(16 * 1024);
      const decoder = new TextDecoder();
      while (!text.includes("\r\n\r\n") || !text.includes("}")) {
        const read = await connection.read(buffer);
        if (read === null) break;
        text += decoder.decode(buffer.subarray(0, read), { stream: true });
      }
    } finally {
      connection.close();
    }
    assert.match(text, /^HTTP\/1\.1 400 /);
    assert.match(text, /"code":-32700/);
  });
});
