/**
 * `weft mcp`: the stdio MCP server an IDE launches. It forwards every JSON-RPC message unchanged between the
 * IDE (stdin/stdout) and this project's service (`/mcp` or `/mcp/codex`), starting the service when it does
 * not run, so the IDE's configuration needs no token and no port.
 *
 * @module
 */

import process from "node:process";
import {
  isInitializeRequest,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from "../mcp/sdk.ts";
import { StdioServerTransport, StreamableHTTPClientTransport } from "../mcp/sdk_client.ts";
import { endpointTransport } from "../client/connect.ts";
import { endpointFor } from "../mcp/endpoints.ts";
import { readConnection } from "../weft_dir/connection.ts";
import { weftPaths } from "../weft_dir/paths.ts";
import { UsageError } from "./args.ts";
import { defineCommand } from "./command.ts";
import { EXIT } from "./exit_codes.ts";
import { observe } from "./lifecycle.ts";
import { spawnService } from "./spawn.ts";

/** JSON-RPC "server error" code for a bridge that cannot reach its service. */
const UNREACHABLE = -32000;

/** The service could not be found or started; its message is meant for the person reading the IDE's log. */
class ServiceUnreachable extends Error {}

/** `weft mcp [--project DIR] [--codex]` */
export const mcpCommand = defineCommand({
  name: "mcp",
  summary: "speak MCP on stdin/stdout for an IDE, bridged to the project's service",
  synopsis: "mcp [--codex]",
  description: `Speaks MCP over stdin/stdout for an IDE and forwards it to this project's service (/mcp, or
/mcp/codex with --codex), starting the service in the background when it does not run. Ends when
stdin closes. \`weft config <ide>\` prints the entry that launches it.`,
  options: { codex: { type: "boolean", help: "use the Codex presentation endpoint (/mcp/codex)" } },
  json: "(stdout carries MCP; only a failure to start is printed as JSON)",
  async run({ projectDir, options, positionals }) {
    if (positionals.length) {
      throw new UsageError("takes no arguments (a project is named with --project DIR)");
    }
    await new Bridge(projectDir, options.codex).run();
    return EXIT.OK;
  },
});

/** One IDE connection bridged to one session of the service. */
class Bridge {
  readonly #stdio = new StdioServerTransport();
  #upstream: Promise<StreamableHTTPClientTransport> | undefined;
  /** Messages go out one at a time so the initialize request establishes the session before anything else. */
  #queue: Promise<void> = Promise.resolve();
  #initializeId: string | number | undefined;
  /** The IDE's initialize and the version it negotiated, to join a restarted service as the same client. */
  #initialize: JSONRPCRequest | undefined;
  #protocolVersion: string | undefined;
  /** Ids of the bridge's own initialize requests, whose answers are not the IDE's business. */
  #rejoinIds = new Set<string>();

  constructor(readonly projectDir: string, readonly codex: boolean) {}

  /** Forwards until the IDE closes stdin. */
  async run(): Promise<void> {
    const stdinClosed = new Promise<void>((resolve) => {
      process.stdin.once("end", resolve);
      process.stdin.once("close", resolve);
      this.#stdio.onclose = resolve;
    });
    this.#stdio.onmessage = (message) => {
      this.#queue = this.#queue.then(() => this.#toService(message));
    };
    this.#stdio.onerror = (error) => warn(`unreadable message from the IDE: ${error.message}`);
    await this.#stdio.start();
    // Connect early so the IDE's initialize does not also wait for a service start; errors surface on use.
    this.#connect().catch(() => {});
    await stdinClosed;
    await this.#close();
  }

  async #toService(message: JSONRPCMessage): Promise<void> {
    try {
      if (isJSONRPCRequest(message) && isInitializeRequest(message)) {
        // A second initialize (an IDE reconnecting) needs a session of its own.
        if (this.#initializeId !== undefined) await this.#disconnect();
        this.#initializeId = message.id;
        this.#initialize = message;
      }
      await this.#forward(message);
    } catch (error) {
      const reason = describe(error);
      warn(reason);
      if (isJSONRPCRequest(message)) {
        await this.#stdio.send({
          jsonrpc: "2.0",
          id: message.id,
          error: { code: UNREACHABLE, message: reason },
        });
      }
    }
  }

  /**
   * Sends one message upstream. When the service has restarted (its sessions are gone) or stopped meanwhile,
   * the bridge starts it if needed, joins it again with the IDE's own initialize, and sends the message once
   * more, so the IDE carries on without restarting its MCP server.
   */
  async #forward(message: JSONRPCMessage): Promise<void> {
    const upstream = await this.#connect();
    try {
      await upstream.send(message);
    } catch (error) {
      const isOwnInitialize = isJSONRPCRequest(message) && message.id === this.#initializeId;
      if (!this.#initialize || isOwnInitialize || !isLostService(error)) throw error;
      warn("the service restarted or stopped; joining it again");
      await this.#disconnect();
      await (await this.#rejoin()).send(message);
    }
  }

  async #rejoin(): Promise<StreamableHTTPClientTransport> {
    const upstream = await this.#connect();
    if (this.#protocolVersion) upstream.setProtocolVersion(this.#protocolVersion);
    const id = `weft-bridge-rejoin-${this.#rejoinIds.size + 1}`;
    this.#rejoinIds.add(id);
    await upstream.send({ ...this.#initialize!, id });
    await upstream.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return upstream;
  }

  async #toIde(message: JSONRPCMessage, upstream: StreamableHTTPClientTransport): Promise<void> {
    if (isJSONRPCResultResponse(message) && message.id === this.#initializeId) {
      // The SDK client does this after initialize; a raw pump must too, or later requests lack the header.
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === "string") {
        upstream.setProtocolVersion(version);
        this.#protocolVersion = version;
      }
    }
    if (isJSONRPCResultResponse(message) && this.#rejoinIds.has(String(message.id))) return;
    await this.#stdio.send(message);
  }

  #connect(): Promise<StreamableHTTPClientTransport> {
    this.#upstream ??= this.#open().catch((error) => {
      this.#upstream = undefined;
      throw error;
    });
    return this.#upstream;
  }

  async #open(): Promise<StreamableHTTPClientTransport> {
    let observed;
    try {
      observed = await observe(this.projectDir);
      if (observed.state !== "running") await spawnService(this.projectDir);
    } catch (error) {
      throw new ServiceUnreachable(
        `could not start the weft service for ${this.projectDir}: ${(error as Error).message}`,
      );
    }
    const connection = await readConnection(weftPaths(this.projectDir));
    if (!connection) {
      throw new ServiceUnreachable(`the weft service for ${this.projectDir} wrote no connection metadata`);
    }
    const endpoint = endpointFor("agent_ide", { codex: this.codex });
    const upstream = endpointTransport(connection, endpoint);
    upstream.onmessage = (message) => void this.#toIde(message, upstream).catch((e) => warn(describe(e)));
    upstream.onerror = (error) => warn(`service stream: ${describe(error)}`);
    await upstream.start();
    return upstream;
  }

  async #disconnect(): Promise<void> {
    const upstream = await this.#upstream?.catch(() => undefined);
    this.#upstream = undefined;
    await upstream?.terminateSession().catch(() => {});
    await upstream?.close();
  }

  async #close(): Promise<void> {
    await this.#disconnect();
    await this.#stdio.close();
  }
}

/** Whether a send failed because the service's session is gone (404) or nothing listens any more. */
function isLostService(error: unknown): boolean {
  return (error as { code?: unknown })?.code === 404 || error instanceof TypeError;
}

/** A one-line reason the IDE can show; transport errors carry no token, only status and text. */
function describe(error: unknown): string {
  if (error instanceof ServiceUnreachable) return error.message;
  return `the weft service did not accept the message: ${error instanceof Error ? error.message : error}`;
}

function warn(message: string): void {
  console.error(`weft mcp: ${message}`);
}
