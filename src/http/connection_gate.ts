/**
 * The TCP front of the service: it accepts loopback connections itself and relays each one to `Deno.serve`
 * on a private Unix socket, because `Deno.serve` has no bound of its own on connections: it keeps a
 * connection that never sends a byte open forever, and when descriptors run out its accept loop fails and
 * takes the process down. Here a connection that sends nothing, or goes quiet, is closed after a bound;
 * at most `maxConnections` are open at once (the descriptor limit minus a reserve, over three); a failed
 * accept waits and tries again. At the cap, the oldest connection that has not sent a byte yet makes room
 * for the new one; when every open connection has spoken, the new one is closed (refused, not queued). Long
 * answers stay open because they are never quiet for long: the session table sends a keep-alive comment on
 * every open event stream well within the idle bound (`sessions.ts`).
 *
 * @module
 */

import { errorKind } from "../errors.ts";
import type { Logger } from "../lib/logger.ts";

/** Bounds of the connections the service holds. */
export interface ConnectionLimits {
  /** Connections open at once; one more is closed as soon as it is accepted. */
  maxConnections: number;
  /** A connection that has sent nothing this long after it was accepted is closed (slow or idle). */
  firstByteMs: number;
  /** A connection with no byte in either direction for this long is closed. */
  idleMs: number;
}

/**
 * A connection that has spoken is closed after this long with no byte either way: more than four keep-alive
 * intervals of an open stream, and more than clients keep a pooled connection (Node 4 s, Deno 90 s).
 */
const IDLE_MS = 120_000;

/** Descriptors kept free for the store, logs and workflow reads, whatever the connections take. */
const RESERVED_DESCRIPTORS = 128;
/** Each relayed connection holds three descriptors: the client's, and both ends of the relay socket. */
const DESCRIPTORS_PER_CONNECTION = 3;

/**
 * Bytes a relay reads at a time from the service toward the client. Every open connection holds a buffer per
 * direction while it waits, so the two are most of what an idle connection costs; 16 KiB moves a large answer
 * in a few reads.
 */
const ANSWER_BUFFER_BYTES = 16 * 1024;

/**
 * Bytes a relay reads at a time from the client. A request is a few hundred bytes of headers and a small JSON
 * body, so a large one only takes more reads, while every connection a client keeps pooled holds 12 KiB less.
 */
const REQUEST_BUFFER_BYTES = 4 * 1024;

/** The limits for this process: the connection cap leaves the descriptors the rest of the service needs. */
export function defaultConnectionLimits(): ConnectionLimits {
  const descriptors = openFileLimit() ?? 1024;
  const fits = Math.floor((descriptors - RESERVED_DESCRIPTORS) / DESCRIPTORS_PER_CONNECTION);
  return { maxConnections: Math.max(8, Math.min(1024, fits)), firstByteMs: 10_000, idleMs: IDLE_MS };
}

/** The soft limit on open descriptors (Linux: `/proc/self/limits`), or undefined where it cannot be read. */
function openFileLimit(): number | undefined {
  if (Deno.build.os !== "linux") return undefined;
  try {
    const line = Deno.readTextFileSync("/proc/self/limits").split("\n")
      .find((text) => text.startsWith("Max open files"));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isFinite(soft) && soft > 0 ? soft : undefined;
  } catch {
    return undefined;
  }
}

interface Relay {
  client: Deno.TcpConn;
  upstream: Deno.Conn | undefined;
  acceptedAt: number;
  lastActivity: number;
  sentBytes: boolean;
  closed: boolean;
}

/** Accepts on `listener` and relays every connection to the Unix socket at `upstreamPath`. */
export class ConnectionGate {
  #relays = new Set<Relay>();
  #closed = false;
  #refused = 0;
  #evicted = 0;
  #timer: ReturnType<typeof setInterval>;
  #accepting: Promise<void>;

  constructor(
    private readonly listener: Deno.TcpListener,
    private readonly upstreamPath: string,
    readonly limits: ConnectionLimits,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    const every = Math.max(10, Math.min(1000, limits.firstByteMs / 4));
    this.#timer = setInterval(() => this.sweep(), every);
    Deno.unrefTimer(this.#timer);
    this.#accepting = this.#acceptLoop();
  }

  /** Connections open now. */
  get size(): number {
    return this.#relays.size;
  }

  /** Connections closed at once because the cap was reached and every open one had spoken, since start. */
  get refused(): number {
    return this.#refused;
  }

  /** Silent connections closed to make room for a new one, since start. */
  get evicted(): number {
    return this.#evicted;
  }

  /** Closes every connection that has been silent past its bound; returns how many. */
  sweep(): number {
    const now = this.now();
    let closed = 0;
    for (const relay of this.#relays) {
      const quiet = relay.sentBytes
        ? now - relay.lastActivity > this.limits.idleMs
        : now - relay.acceptedAt > this.limits.firstByteMs;
      if (quiet) {
        this.#close(relay);
        closed++;
      }
    }
    if (closed) this.logger.log("http.connections_closed", { reason: "idle", count: closed });
    return closed;
  }

  /** Stops accepting new connections; those open go on. */
  stopAccepting(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.listener.close();
    } catch { /* already closed */ }
  }

  /** Stops accepting and closes every connection. */
  async close(): Promise<void> {
    this.stopAccepting();
    clearInterval(this.#timer);
    for (const relay of this.#relays) this.#close(relay);
    await this.#accepting;
  }

  async #acceptLoop(): Promise<void> {
    while (!this.#closed) {
      let client: Deno.TcpConn;
      try {
        client = await this.listener.accept();
      } catch (error) {
        if (this.#closed) return;
        // Out of descriptors (or any passing failure): the pending connection waits in the backlog.
        this.logger.log("http.accept_failed", errorKind(error));
        await new Promise((resolve) => setTimeout(resolve, 100));
        continue;
      }
      if (this.#relays.size >= this.limits.maxConnections && !this.#evictSilent()) {
        if (this.#refused++ % 100 === 0) {
          this.logger.log("http.connection_refused", { open: this.#relays.size, refused: this.#refused });
        }
        try {
          client.close();
        } catch { /* gone already */ }
        continue;
      }
      void this.#relay(client);
    }
  }

  /**
   * Makes room by closing the oldest connection that has not sent a byte yet: such a connection costs its
   * opener nothing, so a flood of them must not keep a real client out. False when every one has spoken.
   */
  #evictSilent(): boolean {
    let oldest: Relay | undefined;
    for (const relay of this.#relays) {
      if (!relay.sentBytes && (!oldest || relay.acceptedAt < oldest.acceptedAt)) oldest = relay;
    }
    if (!oldest) return false;
    this.#close(oldest);
    this.#evicted++;
    return true;
  }

  /**
   * Relays one connection. The relay socket is opened only once the client has sent its first bytes, so a
   * connection that never speaks holds one descriptor, not three.
   */
  async #relay(client: Deno.TcpConn): Promise<void> {
    const now = this.now();
    try {
      // An answer larger than a relay buffer goes out in several writes; with Nagle's algorithm the second
      // would wait for the client's delayed acknowledgement of the first (~40 ms on Linux).
      client.setNoDelay(true);
    } catch { /* the client is gone already: the first read says so */ }
    const relay: Relay = {
      client,
      upstream: undefined,
      acceptedAt: now,
      lastActivity: now,
      sentBytes: false,
      closed: false,
    };
    this.#relays.add(relay);
    // The first read's buffer goes on to carry the client's side, so a relay holds two buffers, not three.
    const fromClient = new Uint8Array(REQUEST_BUFFER_BYTES);
    let length: number | null;
    try {
      length = await client.read(fromClient);
      if (length === null || relay.closed) return this.#close(relay);
      relay.sentBytes = true;
      relay.lastActivity = this.now();
      relay.upstream = await Deno.connect({ transport: "unix", path: this.upstreamPath });
      if (relay.closed) return this.#close(relay);
      await writeAll(relay.upstream, fromClient.subarray(0, length));
    } catch (error) {
      if (!relay.closed) this.logger.log("http.relay_failed", errorKind(error));
      return this.#close(relay);
    }
    const upstream = relay.upstream;
    await Promise.all([
      this.#pump(relay, client, upstream, fromClient),
      this.#pump(relay, upstream, client, new Uint8Array(ANSWER_BUFFER_BYTES)),
    ]);
    this.#close(relay);
  }

  /**
   * Copies one direction through `buffer` until its end, then half-closes the other side so a pending answer
   * still comes.
   */
  async #pump(relay: Relay, from: Deno.Conn, to: Deno.Conn, buffer: Uint8Array): Promise<void> {
    const fromClient = from === relay.client;
    try {
      while (!relay.closed) {
        const read = await from.read(buffer);
        if (read === null) break;
        relay.lastActivity = this.now();
        if (fromClient) relay.sentBytes = true;
        await writeAll(to, buffer.subarray(0, read));
      }
      if (!relay.closed) await to.closeWrite();
    } catch {
      // A reset or a write to a gone peer ends both directions.
      this.#close(relay);
    }
  }

  #close(relay: Relay): void {
    if (!this.#relays.delete(relay) && relay.closed) return;
    relay.closed = true;
    for (const conn of [relay.client, relay.upstream]) {
      try {
        conn?.close();
      } catch { /* already closed */ }
    }
  }
}

async function writeAll(to: Deno.Conn, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += await to.write(bytes.subarray(written));
}
