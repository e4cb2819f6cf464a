/**
 * The MCP SDK symbols the service uses, from the official SDK's v2 server package (it speaks both the
 * 2025-11-25 and the 2026-07-28 revisions; the v1 package stays on 2025-11-25). One module, so that the rest
 * of the service names what it takes from the SDK in one place. The program holds no SDK client: weft's own
 * clients speak MCP with their own small code (`src/client/`), and the tests' SDK clients live in
 * `tests/support/`.
 *
 * @module
 */

export {
  CLIENT_CAPABILITIES_META_KEY,
  createMcpHandler,
  createRequestStateCodec,
  InMemoryServerEventBus,
  inputRequired,
  inputResponse,
  isInitializeRequest,
  isInputRequiredResult,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  isLegacyRequest,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
export type {
  CallToolRequest,
  CallToolResult,
  ClientCapabilities,
  ElicitRequestFormParams,
  ElicitResult,
  EventStore,
  InputRequiredResult,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  jsonSchemaValidator,
  McpHttpHandler,
  McpRequestContext,
  ServerContext,
  ServerEventBus,
  ServerNotification,
  Tool,
  ToolAnnotations,
} from "@modelcontextprotocol/server";
export { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
