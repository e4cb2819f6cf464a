/**
 * The typed client every command uses: a session on the CLI's endpoint (`/internal/mcp`) of the project's
 * checked service (`service_session.ts`, which joins a restarted service again), tool calls that return their
 * structured result or throw the `WeftError` of their payload, and watches of resources. It loads no MCP SDK:
 * a command answers in the time the service takes, whether a service runs or not.
 *
 * @module
 */

import type { ConnectionInfo } from "../weft_dir/connection.ts";
import { ERROR_CODES, type ErrorCode, WeftError } from "../errors.ts";
import { VERSION } from "../version.ts";
import { endpointFor } from "./endpoints.ts";
import { PROTOCOL_VERSION } from "./protocol_version.ts";
import { isNotification, isRequest, type JSONRPCMessage, type JSONRPCRequest } from "./jsonrpc.ts";
import { ServiceOfflineError } from "./offline.ts";
import { ResourceWatch } from "./resource_watch.ts";
import { ServiceSession, ServiceUnreachable } from "./service_session.ts";

/** The MCP protocol version the client asks for (`protocol_version.ts`). */
export { PROTOCOL_VERSION };

/**
 * How long a command waits for a tool's answer, as the SDK's client did: no tool a command calls waits for a
 * person, so a service that takes longer is wedged, and the command says so instead of hanging.
 */
const CALL_TIMEOUT_MS = 60_000;

/** JSON-RPC's "method not found", for a request of the service the client does not serve. */
const METHOD_NOT_FOUND = -32601;

/** Options of {@linkcode openClient} and {@linkcode withClient}. */
export interface ClientOptions {
  /** Start the service in the background when none runs (a crashed one's leftovers are cleared safely). */
  start?: boolean;
  /** Where to say that the service is being started. */
  progress?: (line: string) => void;
}

/** What a client may show of the service it reached: its metadata without the tokens. */
export type ServiceAddress = Omit<ConnectionInfo, "externalToken" | "internalToken">;

/** An open MCP session on the CLI's endpoint. */
export class WeftClient {
  readonly #watches = new Set<ResourceWatch>();

  constructor(private readonly session: ServiceSession, readonly connection: ServiceAddress) {
    session.onmessage = (message) => this.#received(message);
    session.onjoined = ({ resubscribed }) => this.#changed(resubscribed);
    session.onbroken = (subscribed) => this.#changed(subscribed);
  }

  /** Calls a tool and returns its structured result; a classified error payload is thrown as `WeftError`. */
  async call<T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}): Promise<T> {
    const call = this.session.request("tools/call", { name, arguments: args }, {
      purpose: "call",
      timeoutMs: CALL_TIMEOUT_MS,
    });
    const result = await reached(call);
    return unwrapToolResult<T>(result);
  }

  /** Reads the resource `uri` and parses its JSON text (`null` when it has none). */
  async read<T>(uri: string): Promise<T> {
    const result = await reached(this.session.request("resources/read", { uri }, {
      purpose: "read",
      timeoutMs: CALL_TIMEOUT_MS,
    })) as { contents?: { text?: unknown }[] };
    const text = result.contents?.[0]?.text;
    return JSON.parse(typeof text === "string" ? text : "null") as T;
  }

  /**
   * Subscribes to each of `uris` and returns a way to wait for their next changes. A session that had to join
   * the service again counts as a change of each, as does a stream that broke for good: the caller reads
   * again and sees what happened instead of waiting for a notification that cannot come.
   */
  async watch(uris: readonly string[]): Promise<ResourceWatch> {
    const watch = new ResourceWatch(uris, async () => {
      this.#watches.delete(watch);
      for (const uri of uris) {
        if ([...this.#watches].some((other) => other.uris.includes(uri))) continue;
        await this.session.unsubscribe(uri).catch(() => {});
      }
    });
    this.#watches.add(watch);
    for (const uri of uris) await reached(this.session.subscribe(uri));
    return watch;
  }

  /** Ends the session (DELETE) and closes the transport. */
  async close(): Promise<void> {
    await this.session.close();
  }

  #received(message: JSONRPCMessage): void {
    if (isRequest(message)) {
      // The service asks nothing of the CLI but may ping it, as any MCP peer may.
      const { id, method } = message;
      const answer: JSONRPCMessage = method === "ping" ? { jsonrpc: "2.0", id, result: {} } : {
        jsonrpc: "2.0",
        id,
        error: { code: METHOD_NOT_FOUND, message: `weft's CLI does not serve ${method}` },
      };
      void this.session.send(answer).catch(() => {});
      return;
    }
    if (isNotification(message) && message.method === "notifications/resources/updated") {
      const uri = (message.params as { uri?: unknown } | undefined)?.uri;
      if (typeof uri === "string") this.#changed([uri]);
    }
  }

  #changed(uris: string[]): void {
    for (const watch of this.#watches) watch.notify(uris);
  }
}

/**
 * Opens a session on the CLI's endpoint of the project's checked service, starting the service first when
 * `options.start` allows and none runs. No service, or one that does not answer, is a
 * {@linkcode ServiceOfflineError}.
 */
export async function openClient(projectDir: string, options: ClientOptions = {}): Promise<WeftClient> {
  const session = new ServiceSession(projectDir, {
    endpoint: endpointFor("cli"),
    start: options.start,
    progress: options.progress,
  });
  let address: ServiceAddress;
  try {
    const { externalToken: _e, internalToken: _i, ...rest } = await reached(session.connect());
    address = rest;
  } catch (error) {
    await session.close();
    throw error;
  }
  const client = new WeftClient(session, address);
  try {
    await reached(session.join(initialize()));
  } catch (error) {
    await session.close();
    if (error instanceof ServiceOfflineError) throw error;
    throw new ServiceOfflineError(
      `the service (pid ${address.pid}) holds the lock but does not answer: ${(error as Error).message}`,
      true,
    );
  }
  return client;
}

/** Opens a CLI session with the project's service, runs `use` with it, and always closes it. */
export async function withClient<T>(
  projectDir: string,
  use: (client: WeftClient) => Promise<T>,
  options: ClientOptions = {},
): Promise<T> {
  const client = await openClient(projectDir, options);
  try {
    return await use(client);
  } finally {
    await client.close();
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

/** The CLI's `initialize`: what it is, and that it asks for no capability of a client. */
function initialize(): JSONRPCRequest {
  return {
    jsonrpc: "2.0",
    id: "weft-cli-initialize",
    method: "initialize",
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "weft-cli", version: VERSION },
    },
  };
}

/** `promise`, with a service that could not be reached reported as why (offline, or could not start). */
async function reached<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    throw error instanceof ServiceUnreachable ? error.cause : error;
  }
}
