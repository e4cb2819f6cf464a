/**
 * The typed client helper that the CLI uses (Studio's page, a browser client, has its own): find this
 * project's service from its metadata, check the instance is alive, and open the endpoint of the caller's
 * source with that endpoint class's token. The MCP SDK's client is loaded only once a service is found: a
 * command that finds none (`weft status` with the service stopped, say) answers without it (~60 ms less).
 *
 * @module
 */

import type { Client, StreamableHTTPClientTransport } from "../mcp/sdk_client.ts";
import { type Endpoint, endpointFor } from "../mcp/endpoints.ts";
import type { Source } from "../engine/views.ts";
import type { ConnectionInfo } from "../weft_dir/connection.ts";
import { endpointToken, verifiedConnection } from "./verified_connection.ts";
import { ERROR_CODES, type ErrorCode, WeftError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { ServiceOfflineError } from "./offline.ts";

/** Options of {@linkcode connect}. */
export interface ConnectOptions {
  source: Source;
  /** For `agent_ide`: the Codex presentation endpoint. */
  codex?: boolean;
  /** Reported to the server as the client's name. */
  clientName?: string;
}

/** An open MCP session on the right endpoint. */
export class WeftClient {
  constructor(
    readonly client: Client,
    readonly endpoint: Endpoint,
    readonly connection: Omit<ConnectionInfo, "externalToken" | "internalToken">,
  ) {}

  /** Calls a tool and returns its structured result; a classified error payload is thrown as `WeftError`. */
  async call<T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}): Promise<T> {
    const result = await this.client.callTool({ name, arguments: args });
    return unwrapToolResult<T>(result);
  }

  /** Ends the session (DELETE) and closes the transport. */
  async close(): Promise<void> {
    const transport = this.client.transport as StreamableHTTPClientTransport | undefined;
    await transport?.terminateSession().catch(() => {});
    await this.client.close();
  }
}

/** The structured content of a tool result, or the `WeftError` its error payload describes. */
export function unwrapToolResult<T>(result: unknown): T {
  const value = result as { isError?: boolean; structuredContent?: unknown; content?: { text?: string }[] };
  if (value.isError) {
    let payload: { code?: string; message?: string; retryable?: boolean } | undefined;
    try {
      payload = JSON.parse(value.content?.[0]?.text ?? "{}").error;
    } catch {
      // fall through to INTERNAL
    }
    if (payload?.code && payload.code in ERROR_CODES) {
      throw new WeftError(payload.code as ErrorCode, payload.message ?? "", {
        retryable: payload.retryable,
      });
    }
    throw new WeftError("INTERNAL", value.content?.[0]?.text ?? "The tool failed without a payload.");
  }
  return value.structuredContent as T;
}

/**
 * Opens a session on the endpoint of `source` of the project's checked service ({@linkcode verifiedConnection}).
 * An internal source never falls back to an external endpoint.
 */
export async function connect(projectDir: string, options: ConnectOptions): Promise<WeftClient> {
  const connection = await verifiedConnection(projectDir);
  const endpoint = endpointFor(options.source, { codex: options.codex });
  const { Client, StreamableHTTPClientTransport } = await import("../mcp/sdk_client.ts");
  const client = new Client({ name: options.clientName ?? `weft-${options.source}`, version: VERSION });
  // An endpoint is sent the token of its own class, and no other.
  const transport = new StreamableHTTPClientTransport(new URL(endpoint.path, connection.url), {
    requestInit: { headers: { authorization: `Bearer ${endpointToken(connection, endpoint)}` } },
  });
  try {
    await client.connect(transport);
  } catch (error) {
    throw new ServiceOfflineError(
      `the service (pid ${connection.pid}) holds the lock but does not answer: ${(error as Error).message}`,
      true,
    );
  }
  const { externalToken: _e, internalToken: _i, ...publicInfo } = connection;
  return new WeftClient(client, endpoint, publicInfo);
}
