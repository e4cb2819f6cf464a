/**
 * JSON-RPC message shapes as a forwarder tells them apart: by their members, without validating them (the
 * service validates what it receives, the IDE what it is sent). The MCP SDK's own guards parse each message
 * with its schemas, and loading those schemas is most of a start of `weft mcp`.
 *
 * @module
 */

import type { JSONRPCMessage, JSONRPCNotification, JSONRPCRequest } from "../mcp/sdk.ts";

export type { JSONRPCMessage, JSONRPCNotification, JSONRPCRequest };

/** A JSON-RPC response: a result or an error, with the id of the request it answers. */
export type JSONRPCAnswer = JSONRPCMessage & { id: string | number; result?: unknown; error?: unknown };

/** A request: a method and an id. */
export function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return "method" in message && "id" in message && message.id !== undefined;
}

/** A notification: a method and no id. */
export function isNotification(message: JSONRPCMessage): message is JSONRPCNotification {
  return "method" in message && !("id" in message);
}

/** A response, successful or not. */
export function isAnswer(message: JSONRPCMessage): message is JSONRPCAnswer {
  return !("method" in message) && ("result" in message || "error" in message) && "id" in message;
}

/** A successful response. */
export function isResult(message: JSONRPCMessage): message is JSONRPCAnswer & { result: unknown } {
  return isAnswer(message) && "result" in message;
}

/** Whether `value` has the envelope of a JSON-RPC 2.0 message (an object with `jsonrpc: "2.0"`). */
export function isMessage(value: unknown): value is JSONRPCMessage {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    (value as { jsonrpc?: unknown }).jsonrpc === "2.0";
}
