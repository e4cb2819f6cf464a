/**
 * MCP sessions of a real service: bound to the path that opened them, ended by DELETE, capped; and the
 * `status` tool on each endpoint through the real SDK client.
 */

import assert from "node:assert/strict";
import { call, closeClient, mcpClient, runWeft, tokenFor, withServedProject } from "../support/service.ts";
import type { ServedProject } from "../support/service.ts";
import { initializeRequest, mcpHeaders, openRawSession, PROTOCOL_VERSION } from "../support/jsonrpc.ts";
import { within } from "../support/deadline.ts";

function ping(served: ServedProject, path: string, sessionId: string, method = "POST"): Promise<Response> {
  return fetch(served.url + path, {
    method,
    headers: mcpHeaders(tokenFor(served, path), { "mcp-session-id": sessionId }),
    body: method === "POST" ? JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }) : undefined,
  });
}

Deno.test("a session id works only on the path that opened it, and DELETE ends it", async () => {
  await withServedProject(async (served) => {
    const id = await openRawSession(served, "/mcp");
    const own = await ping(served, "/mcp", id);
    assert.equal(own.status, 200);
    await own.body?.cancel();
    for (const path of ["/mcp/codex", "/internal/mcp", "/internal/mcp/studio"]) {
      const elsewhere = await ping(served, path, id);
      assert.equal(elsewhere.status, 404, path);
      await elsewhere.body?.cancel();
    }
    const deleted = await ping(served, "/mcp", id, "DELETE");
    assert.equal(deleted.status, 200);
    await deleted.body?.cancel();
    const after = await ping(served, "/mcp", id);
    assert.equal(after.status, 404);
    await after.body?.cancel();
  });
});

Deno.test("each token class has its own session cap: 503 past it on the IDE's side, the CLI still gets in", async () => {
  await withServedProject({ extraArgs: ["--max-sessions", "2"] }, async (served) => {
    const first = await openRawSession(served, "/mcp");
    await openRawSession(served, "/mcp/codex");
    const refused = await fetch(served.url + "/mcp/codex", {
      method: "POST",
      headers: mcpHeaders(served.connection.externalToken),
      body: JSON.stringify(initializeRequest("raw")),
    });
    assert.equal(refused.status, 503);
    assert.match(
      (await refused.json()).error.message,
      /Too many open MCP sessions on the external endpoints \(limit 2\)/,
    );
    // The IDE's token filled its own table only: the CLI opens sessions, even past its own cap.
    for (let i = 0; i < 3; i++) await openRawSession(served, "/internal/mcp");
    const status = await runWeft(["status", "--project", served.projectDir, "--json"]);
    assert.equal(JSON.parse(status.stdout).state, "running", status.stdout + status.stderr);
    const deleted = await ping(served, "/mcp", first, "DELETE");
    await deleted.body?.cancel();
    await openRawSession(served, "/mcp/codex");
  });
});

Deno.test("status works on all four endpoints and names each endpoint's source", async () => {
  await withServedProject(async (served) => {
    const dir = served.projectDir;
    const expected = {
      "/mcp": ["agent_ide", "mcp_client"],
      "/mcp/codex": ["agent_ide", "mcp_client"],
      "/internal/mcp": ["cli", "service"],
      "/internal/mcp/studio": ["studio", "service"],
    };
    for (const [path, [source, agentExecutor]] of Object.entries(expected)) {
      const client = await mcpClient(served, path);
      try {
        const { service } = await call<
          {
            service: {
              instanceId: string;
              pid: number;
              endpoint: unknown;
              storage: { kind: string; journalMode: string };
            };
          }
        >(client, "status");
        assert.equal(service.instanceId, served.instanceId);
        assert.equal(service.pid, served.pid);
        assert.deepEqual(service.endpoint, { path, source, agentExecutor });
        assert.equal(service.storage.kind, "sqlite");
        assert.equal(service.storage.journalMode, "wal");
        const text = JSON.stringify(service);
        assert.ok(
          !text.includes(served.connection.externalToken) && !text.includes(served.connection.internalToken),
        );
        assert.ok(!text.includes(dir), "status never shows a path of the machine");
      } finally {
        await closeClient(client);
      }
    }
  });
});

/**
 * What every tool promises an MCP client about itself: [readOnlyHint, destructiveHint, idempotentHint], and
 * which endpoints alone offer it: the external ones (the agent-task tools) or the internal ones (a person's
 * own tools). Clients decide on approval prompts from the hints, so a destructive tool marked harmless is a
 * broken promise.
 */
const TOOLS: Record<
  string,
  [readOnly: boolean, destructive: boolean, idempotent: boolean, only?: "external" | "internal"]
> = {
  flow: [false, false, false],
  list_workflows: [true, false, true],
  get_run: [true, false, true],
  list_runs: [true, false, true],
  interact: [false, false, false],
  answer_ask: [false, false, false],
  cancel_run: [false, true, true],
  move_run: [false, false, true, "internal"],
  retry_run: [false, false, false, "internal"],
  trust_project: [false, false, true, "internal"],
  revise_artifact: [false, false, false, "internal"],
  status: [true, false, true],
  get_record: [true, false, true],
  get_artifact: [true, false, true],
  list_artifacts: [true, false, true],
  get_agent_call: [true, false, true, "external"],
  claim_agent_call: [false, false, true, "external"],
  call_agent_tool: [false, false, true, "external"],
  read_agent_asset: [true, false, true, "external"],
  complete_agent_call: [false, false, true, "external"],
  fail_agent_call: [false, true, true, "external"],
};

Deno.test("tool annotations: every tool on every endpoint is annotated as the table says (fail_agent_call and cancel_run destructive)", async () => {
  await withServedProject(async (served) => {
    for (const path of ["/mcp", "/mcp/codex", "/internal/mcp", "/internal/mcp/studio"]) {
      const client = await mcpClient(served, path);
      try {
        const { tools } = await client.listTools();
        const side = path.startsWith("/internal") ? "internal" : "external";
        const expected = Object.keys(TOOLS).filter((name) => [undefined, side].includes(TOOLS[name][3]));
        assert.deepEqual(tools.map((tool) => tool.name).sort(), expected.sort(), `the tools of ${path}`);
        for (const tool of tools) {
          const [readOnlyHint, destructiveHint, idempotentHint] = TOOLS[tool.name];
          // Absent hints mean their MCP defaults: not read-only, destructive, not idempotent, open world.
          const hints = tool.annotations ?? {};
          assert.deepEqual(
            {
              readOnlyHint: hints.readOnlyHint ?? false,
              destructiveHint: hints.destructiveHint ?? true,
              idempotentHint: hints.idempotentHint ?? false,
              openWorldHint: hints.openWorldHint ?? true,
            },
            { readOnlyHint, destructiveHint, idempotentHint, openWorldHint: false },
            `${tool.name} on ${path}`,
          );
        }
      } finally {
        await closeClient(client);
      }
    }
  });
});

Deno.test("tools list strict input schemas and output schemas; an unknown argument is INVALID_REQUEST", async () => {
  await withServedProject(async (served) => {
    for (const path of ["/mcp", "/mcp/codex", "/internal/mcp"]) {
      const client = await mcpClient(served, path);
      try {
        const { tools } = await client.listTools();
        for (const tool of tools) {
          assert.equal(
            tool.inputSchema.additionalProperties,
            false,
            `${tool.name} takes no unknown argument`,
          );
          assert.ok(tool.outputSchema, `${tool.name} declares its output`);
        }
        const unknown = await client.callTool({ name: "status", arguments: { extra: 1 } });
        assert.equal(unknown.isError, true);
        assert.equal(
          JSON.parse((unknown.content as { text: string }[])[0].text).error.code,
          "INVALID_REQUEST",
        );
      } finally {
        await closeClient(client);
      }
    }
  });
});

Deno.test("malformed requests in a session are classified JSON-RPC errors, never -32603 with a schema dump", async () => {
  await withServedProject(async (served) => {
    const id = await openRawSession(served, "/mcp");
    const send = async (message: Record<string, unknown>) => {
      const response = await fetch(served.url + "/mcp", {
        method: "POST",
        headers: mcpHeaders(served.connection.externalToken, { "mcp-session-id": id }),
        body: JSON.stringify({ jsonrpc: "2.0", id: 9, ...message }),
      });
      const text = await response.text();
      const data = text.split("\n").find((line) => line.startsWith("data: "));
      return { status: response.status, text, error: JSON.parse(data ? data.slice(6) : text).error };
    };
    const malformed = [
      { method: "tools/call", params: { name: "status", arguments: "x" } },
      { method: "tools/call", params: { arguments: {} } },
      { method: "tools/call", params: { name: 7 } },
      { method: "resources/read" },
      { method: "resources/read", params: { uri: 7 } },
    ];
    for (const message of malformed) {
      const { error, text } = await send(message);
      assert.equal(error?.code, -32602, JSON.stringify(message));
      // The SDK itself checks tools/call (and shows its schema issues); weft's own checks name them in a line.
      if (message.method !== "tools/call") {
        assert.doesNotMatch(text, /invalid_type/, `no schema dump: ${text}`);
      }
    }
    // initialize belongs before a session: inside one it is refused the same way, whatever its params.
    for (const params of [initializeRequest("again").params, {}, undefined]) {
      const { status, error, text } = await send({ method: "initialize", params });
      assert.equal(status, 400, JSON.stringify(params));
      assert.equal(error?.code, -32600, JSON.stringify(params));
      assert.match(error.message, /already initialized/);
      assert.doesNotMatch(text, /invalid_type|"expected"/, "no schema dump");
    }
    const still = await send({ method: "ping" });
    assert.equal(still.error, undefined, "the session still answers");
  });
});

Deno.test("status and stop get in when both session tables are full of open GET streams", async () => {
  await withServedProject({ extraArgs: ["--max-sessions", "2"] }, async (served) => {
    const streams: Response[] = [];
    try {
      for (const path of ["/mcp", "/mcp/codex", "/internal/mcp", "/internal/mcp/studio"]) {
        const id = await openRawSession(served, path);
        const stream = await fetch(served.url + path, {
          headers: {
            authorization: `Bearer ${tokenFor(served, path)}`,
            accept: "text/event-stream",
            "mcp-session-id": id,
            "mcp-protocol-version": PROTOCOL_VERSION,
          },
        });
        assert.equal(stream.status, 200, `a GET stream on ${path}`);
        streams.push(stream);
      }
      // Every session of both classes streams: none is idle, so only making room lets the CLI in.
      const status = await runWeft(["status", "--project", served.projectDir, "--json"]);
      assert.equal(JSON.parse(status.stdout).state, "running", status.stdout + status.stderr);
      const stop = await runWeft(["stop", "--project", served.projectDir]);
      assert.equal(stop.code, 0, stop.stdout + stop.stderr);
      assert.equal(
        await within("the service to exit after weft stop", served.process.status).then((s) => s.code),
        0,
      );
    } finally {
      for (const stream of streams) await stream.body?.cancel().catch(() => {});
    }
  });
});
