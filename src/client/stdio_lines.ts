/**
 * The IDE's side of `weft mcp`: MCP's stdio transport, newline-delimited JSON-RPC on stdin and stdout. Each
 * line is parsed as JSON and checked for the JSON-RPC envelope only; what the message means is the service's
 * to check.
 *
 * @module
 */

import { LineReader } from "../lib/line_reader.ts";
import { isMessage, type JSONRPCMessage } from "./jsonrpc.ts";

/** JSON-RPC messages read from one stream, one per line, and written to another. */
export class StdioLines {
  onmessage?: (message: JSONRPCMessage) => void;
  /** A line that is not a JSON-RPC message; reading goes on. */
  onerror?: (error: Error) => void;
  #lines: LineReader;
  #writes: Promise<void> = Promise.resolve();
  #encoder = new TextEncoder();

  constructor(
    input: ReadableStream<Uint8Array> = Deno.stdin.readable,
    private readonly output: WritableStream<Uint8Array> = Deno.stdout.writable,
  ) {
    this.#lines = new LineReader(input);
  }

  /** Reads until the input ends; resolves then. */
  async read(): Promise<void> {
    while (true) {
      const line = await this.#lines.next();
      if (line === null) return;
      if (!line.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        this.onerror?.(new Error(`not JSON: ${line.slice(0, 80)}`));
        continue;
      }
      if (isMessage(value)) this.onmessage?.(value);
      else this.onerror?.(new Error(`not a JSON-RPC 2.0 message: ${line.slice(0, 80)}`));
    }
  }

  /** Writes one message as a line; writes keep the order of the calls. */
  send(message: JSONRPCMessage): Promise<void> {
    const bytes = this.#encoder.encode(JSON.stringify(message) + "\n");
    const written = this.#writes.then(async () => {
      const writer = this.output.getWriter();
      try {
        await writer.write(bytes);
      } finally {
        writer.releaseLock();
      }
    });
    // A failed write (the IDE went away) fails its own caller, not every write after it.
    this.#writes = written.catch(() => {});
    return written;
  }

  /** Stops reading. */
  async close(): Promise<void> {
    await this.#lines.cancel();
  }
}
