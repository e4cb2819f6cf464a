/**
 * The baseline of `weft mcp`: the least an MCP SDK stdio server can be, one low-level `Server` with an `echo`
 * tool on a `StdioServerTransport`. Run as `deno run -A tests/bench/bare_stdio.ts`; ends when stdin closes.
 *
 * @module
 */

import { Server } from "../../src/mcp/sdk.ts";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

const server = new Server({ name: "bare", version: "0.0.0" }, {
  capabilities: { tools: { listChanged: false } },
});
server.setRequestHandler("tools/list", () => ({
  tools: [{ name: "echo", description: "Returns its input.", inputSchema: { type: "object" } }],
}));
server.setRequestHandler("tools/call", (request) => ({
  content: [{ type: "text", text: JSON.stringify(request.params.arguments ?? {}) }],
}));
await server.connect(new StdioServerTransport());
