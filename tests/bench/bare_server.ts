/**
 * The benchmark baseline: the least an MCP SDK server over Streamable HTTP can be. `Deno.serve` on 127.0.0.1
 * (port 0 unless `--port N`), one sessionful `WebStandardStreamableHTTPServerTransport` and one low-level
 * `Server` per session, offering a single `echo` tool. No auth, no storage, no logging.
 *
 * Started the same way as `weft serve` (`deno run -A tests/bench/bare_server.ts --port 0`) and prints the same
 * kind of ready line, `{"ready":true,"url","port","pid","instanceId"}`; stops on SIGTERM or SIGINT. With
 * `--gated` it serves through weft's own TCP front (the connection gate relaying to `Deno.serve` on a Unix
 * socket) instead, so the gate's cost can be measured against the same server without it.
 *
 * @module
 */

import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from "../../src/mcp/sdk.ts";
import { serveOnLoopback } from "../../src/http/loopback_server.ts";
import { Logger } from "../../src/lib/logger.ts";

interface Session {
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
}

const sessions = new Map<string, Session>();

function createServer(): Server {
  const server = new Server(
    { name: "bare", version: "0.0.0" },
    { capabilities: { tools: { listChanged: false } } },
  );
  server.setRequestHandler("tools/list", () => ({
    tools: [{
      name: "echo",
      description: "Returns its input.",
      inputSchema: { type: "object", properties: { text: { type: "string" } } },
    }],
  }));
  server.setRequestHandler("tools/call", (request) => {
    if (request.params.name !== "echo") {
      return { isError: true, content: [{ type: "text", text: "unknown tool" }] };
    }
    const args = request.params.arguments ?? {};
    return { structuredContent: args, content: [{ type: "text", text: JSON.stringify(args) }] };
  });
  return server;
}

/** The 2026-07-28 entry, from the same server factory. */
const modern = createMcpHandler(createServer, { legacy: "reject" });

function jsonError(status: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status });
}

async function handle(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname !== "/mcp") return new Response("not found", { status: 404 });
  const sessionId = request.headers.get("mcp-session-id");
  if (sessionId !== null) {
    const session = sessions.get(sessionId);
    if (!session) return jsonError(404, "Session not found");
    return await session.transport.handleRequest(request);
  }
  if (request.method !== "POST") return jsonError(400, "Bad Request: initialize first");
  const body = await request.json().catch(() => undefined);
  // MCP 2026-07-28: one server per request, as weft's endpoints serve it (without Deno's request signal).
  if (body !== undefined && !await isLegacyRequest(request, body)) {
    const detached = new Request(request.url, { method: request.method, headers: request.headers });
    return await modern.fetch(detached, { parsedBody: body });
  }
  if (!isInitializeRequest(body)) return jsonError(400, "Bad Request: initialize first");
  const server = createServer();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => crypto.randomUUID(),
    onsessioninitialized: (id) => void sessions.set(id, { server, transport }),
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  await server.connect(transport);
  return await transport.handleRequest(request, { parsedBody: body });
}

if (import.meta.main) {
  const index = Deno.args.indexOf("--port");
  const port = index >= 0 ? Number(Deno.args[index + 1]) : 0;
  const httpServer = Deno.args.includes("--gated")
    ? await serveOnLoopback(handle, { port, logger: Logger.silent() })
    : Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, handle);
  const actual = "gate" in httpServer ? httpServer.port : httpServer.addr.port;
  console.log(JSON.stringify({
    ready: true,
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    pid: Deno.pid,
    instanceId: `bare_${crypto.randomUUID().slice(0, 8)}`,
  }));
  await new Promise<void>((resolve) => {
    Deno.addSignalListener("SIGTERM", resolve);
    Deno.addSignalListener("SIGINT", resolve);
  });
  await Promise.allSettled([...sessions.values()].map((session) => session.server.close()));
  await httpServer.shutdown();
  Deno.exit(0);
}
