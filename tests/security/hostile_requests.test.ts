/**
 * What a hostile neighbour without a token can send: hundreds of connections that never speak, a target in
 * absolute form, JSON nested millions deep. Each gets a bounded, classified refusal and the service goes on
 * serving.
 */

import assert from "node:assert/strict";
import { runWeft, serve, tempProject } from "../support/service.ts";
import { rawRequest } from "../support/raw_http.ts";
import { eventually } from "../support/deadline.ts";
import { initializeRequest, mcpHeaders, openRawSession } from "../support/jsonrpc.ts";

Deno.test("a request target in absolute form naming another authority is refused", async () => {
  const dir = await tempProject();
  const served = await serve(dir);
  try {
    const headers = mcpHeaders(served.connection.externalToken, { host: `127.0.0.1:${served.port}` });
    for (
      const target of [
        "http://other.example/mcp",
        `http://127.0.0.1:${served.port + 1}/mcp`,
        "http://[::1]/mcp",
      ]
    ) {
      const response = await rawRequest(served.port, {
        method: "POST",
        path: target,
        headers,
        body: JSON.stringify(initializeRequest("raw")),
      });
      assert.equal(response.status, 400, target);
      assert.match(response.body, /origin form/);
    }
    const plain = await rawRequest(served.port, {
      method: "POST",
      path: "/mcp",
      headers,
      body: JSON.stringify(initializeRequest("raw")),
    });
    assert.equal(plain.status, 200);
  } finally {
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Sends one raw `tools/call` in `session` and returns the HTTP status and the body as text. */
async function rawCall(
  url: string,
  headers: Record<string, string>,
  name: string,
  argumentsJson: string,
): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: "POST",
    headers,
    body:
      `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"${name}","arguments":${argumentsJson}}}`,
  });
  return { status: response.status, text: await response.text() };
}

/** The tool result carried by a raw answer (JSON or one SSE `data:` line). */
function resultOf(text: string): { structuredContent?: Record<string, unknown>; isError?: boolean } {
  const json = text.startsWith("event:") ? text.slice(text.indexOf("data: ") + 6).trim() : text;
  return JSON.parse(json).result;
}

Deno.test("JSON nested two million deep is refused as an invalid request, and the service keeps answering", async () => {
  const dir = await tempProject();
  const served = await serve(dir);
  try {
    const session = await openRawSession(served, "/mcp");
    const url = served.url + "/mcp";
    const headers = mcpHeaders(served.connection.externalToken, { "mcp-session-id": session });
    // A task that owns a tool whose input may be any JSON: the deep value reaches the receipts' fingerprint.
    const flow = await rawCall(url, headers, "flow", '{"flowName":"intent","intent":"deep"}');
    const run = resultOf(flow.text).structuredContent!.run as {
      runId: string;
      pendingAgentCall: { id: string };
    };
    const ref = { runId: run.runId, callId: run.pendingAgentCall.id };
    const claim = await rawCall(
      url,
      headers,
      "claim_agent_call",
      JSON.stringify({ ...ref, claimId: "deep" }),
    );
    const ownerToken = resultOf(claim.text).structuredContent!.ownerToken as string;
    const owned = JSON.stringify({ ...ref, ownerToken, toolCallId: "deep-1", toolId: "get_context" });
    const depth = 2_000_000;
    for (const [open, close] of [["[", "]"], ['{"a":', "}"]]) {
      const levels = open === "[" ? depth : depth / 6;
      const nested = open.repeat(levels) + "0" + close.repeat(levels);
      const answer = await rawCall(
        url,
        headers,
        "call_agent_tool",
        `${owned.slice(0, -1)},"input":{"v":${nested}}}`,
      );
      assert.equal(answer.status, 400, answer.text.slice(0, 300));
      assert.match(answer.text, /"code":-32600/);
      assert.match(answer.text, /nested deeper than/);
    }
    const status = await rawCall(url, headers, "status", "{}");
    assert.equal(status.status, 200);
    assert.ok(resultOf(status.text).structuredContent?.service, status.text);
  } finally {
    await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("600 connections that never send a byte neither exhaust descriptors nor keep clients out", async () => {
  const dir = await tempProject();
  // 256 descriptors: on main, 600 idle connections end the process with "Too many open files".
  const served = await serve(dir, { wrapper: ["sh", "-c", 'ulimit -n 256 && exec "$@"', "sh"] });
  const idle: Deno.Conn[] = [];
  try {
    for (let i = 0; i < 600; i++) {
      idle.push(await Deno.connect({ hostname: "127.0.0.1", port: served.port }));
      if (i % 100 === 99) {
        // `weft status` gets in while the flood goes on: silent connections make room for it.
        const status = await runWeft(["status", "--project", dir, "--json"]);
        assert.equal(JSON.parse(status.stdout).state, "running", status.stdout + status.stderr);
      }
    }
    // None of the silent connections is kept: past the cap the gate closes the oldest silent one to make room,
    // and the rest go at the first-byte bound (10 s). Every read waits for its end, so a close that is merely
    // slow to arrive still counts; a connection the service kept open would never be counted.
    let closed = 0;
    for (const conn of idle) {
      conn.read(new Uint8Array(1)).then((n) => n === null && closed++, () => closed++);
    }
    await eventually(
      "all 600 silent connections closed by the service",
      () => closed === idle.length || undefined,
    );
  } finally {
    for (const conn of idle) {
      try {
        conn.close();
      } catch { /* closed by the service */ }
    }
    assert.equal(await served.stop(), 0, "the service stops cleanly after the flood");
    await Deno.remove(dir, { recursive: true });
  }
});
