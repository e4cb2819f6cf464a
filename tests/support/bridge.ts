/**
 * `weft mcp` (the IDE bridge) of this checkout for a project, as the tests launch it: behind the SDK's stdio
 * client, as an IDE would, as a bare child process whose stdin and stdout a test writes and reads itself, or
 * behind a scripted IDE that sends and reads raw messages.
 *
 * @module
 */

import { StdioClientTransport } from "./sdk_test_client.ts";
import { StreamText, within } from "./deadline.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** The arguments that run `weft mcp` for `projectDir` from this checkout. */
function bridgeArgs(projectDir: string): string[] {
  return ["run", "-A", MAIN, "mcp", "--project", projectDir];
}

/**
 * An SDK stdio transport that launches `weft mcp` for `projectDir` (its stderr piped, for the test to read),
 * with `env` added to this process's environment.
 */
export function bridgeTransport(projectDir: string, env: Record<string, string> = {}): StdioClientTransport {
  return new StdioClientTransport({
    command: Deno.execPath(),
    args: bridgeArgs(projectDir),
    env: { ...Deno.env.toObject(), ...env },
    stderr: "pipe",
  });
}

/** `weft mcp` for `projectDir` as a child process with piped stdin and stdout; its stderr goes nowhere. */
export function spawnBridge(projectDir: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: bridgeArgs(projectDir),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
}

/** A JSON-RPC message as a scripted IDE reads it. */
// deno-lint-ignore no-explicit-any
export type Message = Record<string, any>;

/**
 * An IDE scripted over stdio: `weft mcp` for a project as a child process, written and read line by line, so
 * a test sees every message the bridge sends (notifications included) and its stderr.
 */
export class ScriptedIde {
  readonly child: Deno.ChildProcess;
  readonly #stdout: StreamText;
  readonly stderr: StreamText;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  #read = 0;
  /** Every message read so far, in order. */
  readonly messages: Message[] = [];

  constructor(projectDir: string) {
    this.child = new Deno.Command(Deno.execPath(), {
      args: bridgeArgs(projectDir),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#stdout = new StreamText(this.child.stdout, "the stdout of weft mcp");
    this.stderr = new StreamText(this.child.stderr, "the stderr of weft mcp");
    void this.stderr.drain();
    this.#writer = this.child.stdin.getWriter();
  }

  /** Writes one message. */
  async send(message: Message): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n"));
  }

  /** Sends request `id` and resolves with its answer (a result or an error). */
  async request(id: number, method: string, params?: Record<string, unknown>): Promise<Message> {
    await this.send({ id, method, ...(params ? { params } : {}) });
    return await this.next((message) => message.id === id && !("method" in message));
  }

  /** The first message read (now or later) that `matches`. */
  async next(matches: (message: Message) => boolean): Promise<Message> {
    while (true) {
      const found = this.messages.find(matches);
      if (found) return found;
      const end = await this.#stdout.until("\n", this.#read);
      this.messages.push(JSON.parse(this.#stdout.text.slice(this.#read, end)));
      this.#read = end;
    }
  }

  /**
   * Closes stdin and waits for the bridge to exit; resolves with its exit code (killed, and so not 0, when it
   * did not exit by the deadline).
   */
  async close(): Promise<number> {
    await this.#writer.close().catch(() => {});
    const status = await within("weft mcp to exit once its stdin closed", this.child.status).catch(() => {
      this.child.kill("SIGKILL");
      return this.child.status;
    });
    await this.#stdout.cancel();
    await within("the stderr of weft mcp to end", this.stderr.drain());
    return status.code;
  }
}
