/**
 * The MCP SDK symbols only tests and the bench use (an IDE's stdio client, the bare stdio server's transport,
 * the list-changed notification), re-exported with explicit type sources like `src/mcp/sdk_client.ts`. They
 * stay out of `src/`: every npm import in the program's module graph costs each `deno run` of weft start-up
 * time (see `src/lib/zod.ts`).
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/stdio"
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
