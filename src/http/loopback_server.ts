/**
 * The service's HTTP server on 127.0.0.1: a {@linkcode ConnectionGate} accepts the TCP connections and bounds
 * them, and `Deno.serve` answers behind it on a Unix socket in a private folder (mode 0700) that no other
 * user can reach, so nothing skips the gate. The folder goes with the server (`relay_folder.ts` says how a
 * killed service's folder is cleared).
 *
 * @module
 */

import { join } from "node:path";
import type { Logger } from "../lib/logger.ts";
import { ConnectionGate, type ConnectionLimits, defaultConnectionLimits } from "./connection_gate.ts";
import { makeRelayFolder, RELAY_SOCKET } from "./relay_folder.ts";

/** A listening server. */
export interface LoopbackServer {
  port: number;
  gate: ConnectionGate;
  /** Stops accepting, lets answers in progress finish, then closes every connection and the private folder. */
  shutdown(): Promise<void>;
}

/** Where to listen: an explicit port, else the previous one when still free, else one the OS chooses. */
export interface ListenOptions {
  port?: number;
  previousPort?: number;
  limits?: ConnectionLimits;
  logger: Logger;
  /** Where the relay folder is made; the system's temporary folder by default. */
  relayRoot?: string;
}

/** Starts serving `handler` on 127.0.0.1. */
export async function serveOnLoopback(
  handler: (request: Request) => Promise<Response>,
  options: ListenOptions,
): Promise<LoopbackServer> {
  const listener = listenTcp(options);
  let folder: string;
  try {
    folder = await makeRelayFolder(options.relayRoot);
  } catch (error) {
    listener.close();
    throw error;
  }
  let server: Deno.HttpServer<Deno.UnixAddr> | undefined;
  try {
    const path = join(folder, RELAY_SOCKET);
    server = Deno.serve({ transport: "unix", path, onListen: () => {} }, handler);
    const gate = new ConnectionGate(
      listener,
      path,
      options.limits ?? defaultConnectionLimits(),
      options.logger,
    );
    const running = server;
    return {
      port: listener.addr.port,
      gate,
      shutdown: async () => {
        gate.stopAccepting();
        await running.shutdown();
        await gate.close();
        await Deno.remove(folder, { recursive: true }).catch(() => {});
      },
    };
  } catch (error) {
    listener.close();
    await server?.shutdown();
    await Deno.remove(folder, { recursive: true }).catch(() => {});
    throw error;
  }
}

function listenTcp(options: ListenOptions): Deno.TcpListener {
  const listen = (port: number) => Deno.listen({ hostname: "127.0.0.1", port });
  if (options.port !== undefined) return listen(options.port);
  if (options.previousPort) {
    try {
      return listen(options.previousPort);
    } catch (error) {
      if (!(error instanceof Deno.errors.AddrInUse)) throw error;
      options.logger.log("service.port_taken", { port: options.previousPort });
    }
  }
  return listen(0);
}
