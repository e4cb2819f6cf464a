/**
 * The SDK client symbols the page uses, with explicit type sources: without the `@ts-types` hints the SDK's
 * types silently become `any` under Deno, and type-checking would prove nothing.
 *
 * @module
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
