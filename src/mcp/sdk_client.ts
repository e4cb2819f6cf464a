/**
 * The MCP SDK symbols of weft's clients (the CLI's commands, tests), re-exported with explicit
 * type sources like `sdk.ts`. Kept apart from the service's symbols so that `weft serve` never loads them.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
