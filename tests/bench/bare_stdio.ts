/**
 * The baseline of `weft mcp`: the least an MCP SDK stdio server can be, one low-level `Server` with an `echo`
 * tool on a `StdioServerTransport`. Run as `deno run -A tests/bench/bare_stdio.ts`; ends when stdin closes.
 *
 * @module
 */

import { CallToolRequestSchema, ListToolsRequestSchema, Server } from "../../src/mcp/sdk.ts";
import { StdioServerTransport } from "../support/sdk_test_client.ts";

const server = new Server({ name: "bare", version: "0.0.0" }, {
  capabilities: { tools: { listChanged: false } },
});
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [{ name: "echo", description: "Returns its input.", inputSchema: { type: "object" } }],
}));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: "text", text: JSON.stringify(request.params.arguments ?? {}) }],
}));
await server.connect(new StdioServerTransport());
