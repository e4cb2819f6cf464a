/**
 * MCP clients of the benchmark: connected to a started server, tracked for cleanup, and every call bounded by
 * the step timeout.
 *
 * @module
 */

import { Client, StreamableHTTPClientTransport } from "../support/sdk_test_client.ts";
import { modernClientAt, type Revision } from "../support/modern_client.ts";
import { unwrapToolResult } from "../../src/client/weft_client.ts";
import { clients, withTimeout } from "./resources.ts";
import type { Started } from "./servers.ts";

/**
 * An MCP client on `path` of `server`, with the token of the path's class (weft only): the v1 client of
 * 2025-11-25 by default, or the v2 client pinned to 2026-07-28 (typed as the v1 one: the rows use only
 * `callTool`, which both have alike).
 */
export async function connect(server: Started, path: string, revision?: Revision): Promise<Client> {
  const token = path.startsWith("/internal") ? server.tokens?.internal : server.tokens?.external;
  if (revision && revision !== "2025-11-25") {
    const modern = await withTimeout(modernClientAt(new URL(path, server.url), token), `connect ${path}`);
    const client = modern as unknown as Client;
    clients.add(client);
    return client;
  }
  const client = new Client({ name: "weft-bench", version: "0.0.0" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(path, server.url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
  await withTimeout(client.connect(transport), `connect ${path}`);
  clients.add(client);
  return client;
}

/** Calls a weft tool, returning its structured result or throwing its classified error. */
export async function call<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  return unwrapToolResult<T>(await withTimeout(client.callTool({ name, arguments: args }), name));
}

/** Calls the bare server's `echo` tool once. */
export async function echo(client: Client): Promise<void> {
  const result = await withTimeout(client.callTool({ name: "echo", arguments: { text: "ping" } }), "echo");
  if (result.isError) throw new Error("echo failed");
}
