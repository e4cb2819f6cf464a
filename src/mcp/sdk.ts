/**
 * The MCP SDK symbols weft uses, re-exported with explicit type sources: without the `@ts-types` hints the
 * SDK's types silently become `any` under Deno, and type-checking would prove nothing.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/server/index"
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/index"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  CallToolRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  isInitializeRequest,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export type {
  CallToolRequest,
  CallToolResult,
  ElicitRequestFormParams,
  ElicitResult,
  JSONRPCMessage,
  JSONRPCRequest,
  ServerNotification,
  ServerRequest,
  Tool,
  ToolAnnotations,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/shared/protocol"
export type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
