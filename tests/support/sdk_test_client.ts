/**
 * The MCP client the tests and the bench drive the service with as IDEs in the wild do today: the v1 SDK
 * (1.32.2), which speaks 2025-11-25 only (sessions, `initialize`, elicitation, `resources/subscribe`). The
 * program itself no longer loads v1 (deno.json does not name it); keeping it here proves that older clients
 * still work. Re-exported with
 * explicit type sources: without the `@ts-types` hints its types silently become `any` under Deno.
 *
 * @module
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
export { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp"
export { StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/stdio"
export { StdioClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
export {
  ElicitRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
export type { ElicitResult } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
