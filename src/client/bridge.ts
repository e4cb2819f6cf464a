/**
 * The bridge of `weft mcp`: it forwards every JSON-RPC message unchanged between an IDE (stdin/stdout) and one
 * session of this project's service (`/mcp` or `/mcp/codex`). The session (`service_session.ts`) starts the
 * service when it does not run, so the IDE's configuration needs no token and no port, and joins it again
 * after a restart, subscribing again to what the IDE subscribed to; the bridge then tells the IDE to re-read
 * those resources.
 *
 * When the service has to be started, the bridge answers the IDE's `initialize` and opening listings from the
 * service's last answers (`opening_answers.ts`) while the service starts, and joins the service's session
 * before it forwards the first request that needs the service.
 *
 * @module
 */

import { endpointFor } from "./endpoints.ts";
import { isAnswer, isNotification, isRequest, type JSONRPCMessage, type JSONRPCRequest } from "./jsonrpc.ts";
import { weftPaths } from "../weft_dir/paths.ts";
import { OpeningAnswers, type Settled } from "./opening_answers.ts";
import { ClientFailure } from "./failure.ts";
import { type Joined, ServiceSession, ServiceUnreachable } from "./service_session.ts";
import { StdioLines } from "./stdio_lines.ts";
import { visibleLine } from "../lib/visible_text.ts";

/** JSON-RPC "server error" code for a bridge that cannot reach its service. */
const UNREACHABLE = -32000;

/**
 * How long the bridge still waits, once the IDE has closed stdin, for the answers to the requests it sent
 * before (`printf '<initialize>\\n<tools/list>\\n' | weft mcp` must print both answers); a request still
 * unanswered then (a form waiting for a person, say) is dropped with the session.
 */
const DRAIN_MS = 30_000;

/** One IDE connection bridged to one session of the service. */
export class Bridge {
  readonly #stdio = new StdioLines();
  readonly #session: ServiceSession;
  /** Messages go out one at a time so the initialize request establishes the session before anything else. */
  #queue: Promise<void> = Promise.resolve();
  /** The IDE's initialize, whose answer tells the session the protocol version and is recorded. */
  #initialize: JSONRPCRequest | undefined;
  /** The IDE's requests whose answers are compared with the record: request id → key. */
  readonly #recordable = new Map<string | number, string>();
  /** The IDE's requests not answered yet, and who waits for the last of them to be. */
  #unanswered = new Set<string | number>();
  #allAnswered: (() => void) | undefined;
  readonly #answers: OpeningAnswers;
  /** Resolves once the first look for the service is done: whether the bridge starts it, .weft/ trusted. */
  readonly #startsService = Promise.withResolvers<boolean>();
  /** The IDE's session was opened with recorded answers, so the service's session is joined on the side. */
  #early = false;
  /** That join, while it is under way; set back when it failed, so the next request tries again. */
  #joining: Promise<void> | undefined;
  #joined = false;
  /** The check of the recorded listings against the service's, once joined. */
  #checking: Promise<void> | undefined;

  constructor(readonly projectDir: string, readonly codex: boolean) {
    const endpoint = endpointFor("agent_ide", { codex });
    this.#answers = new OpeningAnswers(weftPaths(projectDir), endpoint.path);
    this.#session = new ServiceSession(projectDir, {
      endpoint,
      persistent: true,
      // Only from a .weft/ found to be weft's own may the record of answers be read.
      starting: (trusted) => this.#startsService.resolve(trusted),
    });
    this.#session.onmessage = (message) => void this.#toIde(message).catch((e) => warn(this.#describe(e)));
    this.#session.onlost = (id, error) => {
      warn(`the answer to request ${id} was lost: ${error.message}`);
      const reason = `the weft service's answer was lost (${error.message}); ` +
        "the request may or may not have taken effect";
      void this.#fail(id, reason).catch((e) => warn(this.#describe(e)));
    };
    this.#session.onwarning = warn;
    this.#session.onjoined = (joined) => this.#joinedAgain(joined);
  }

  /** Forwards until the IDE closes stdin. */
  async run(): Promise<void> {
    this.#stdio.onmessage = (message) => this.#enqueue(() => this.#toService(message));
    this.#stdio.onerror = (error) => warn(`unreadable message from the IDE: ${error.message}`);
    // Reach the service early so the IDE's initialize does not also wait for a start; errors surface on use.
    this.#session.connect().catch(() => {}).finally(() => this.#startsService.resolve(false));
    await this.#stdio.read();
    await this.#drain(DRAIN_MS);
    await this.#close();
  }

  /** Waits, at most `limitMs`, until every message of the IDE has gone out and every request is answered. */
  async #drain(limitMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<void>((resolve) => timer = setTimeout(resolve, limitMs));
    const answered = this.#queue.then(() =>
      this.#unanswered.size ? new Promise<void>((resolve) => this.#allAnswered = resolve) : undefined
    );
    await Promise.race([answered, limit]);
    clearTimeout(timer);
  }

  async #toService(message: JSONRPCMessage): Promise<void> {
    if (isRequest(message)) this.#unanswered.add(message.id);
    try {
      if (isRequest(message) && message.method === "initialize") {
        const first = this.#initialize === undefined;
        if (!first) {
          // A second initialize (an IDE reconnecting) needs a session of its own.
          await this.#joining?.catch(() => {});
          this.#early = false;
          await this.#session.disconnect();
        }
        this.#initialize = message;
        if (first && await this.#openEarly(message)) return;
      } else if (this.#early && await this.#answerEarly(message)) return;
      const key = isRequest(message) ? this.#answers.keyOf(message) : undefined;
      if (key !== undefined) this.#recordable.set((message as JSONRPCRequest).id, key);
      await this.#session.send(message);
    } catch (error) {
      const reason = this.#describe(error);
      warn(reason);
      if (isRequest(message)) await this.#fail(message.id, reason);
    }
  }

  /**
   * Answers the IDE's first `initialize` with the service's recorded answer when the bridge is starting the
   * service (it runs this same program, so it answers the same), and joins the service's session on the side.
   * False when there is no such record: the initialize is forwarded.
   */
  async #openEarly(initialize: JSONRPCRequest): Promise<boolean> {
    if (!(await this.#startsService.promise)) return false;
    const result = await this.#answers.give(initialize) as { protocolVersion?: unknown } | undefined;
    if (typeof result?.protocolVersion !== "string") return false;
    this.#early = true;
    await this.#toIde({ jsonrpc: "2.0", id: initialize.id, result });
    const joining: Promise<void> = this.#session.join(initialize).then(() => {
      this.#joined = true;
      this.#checking = this.#checkListings();
    }, (error) => {
      if (this.#joining === joining) this.#joining = undefined;
      throw error;
    });
    // Whoever needs the session hears why it failed; nobody may be waiting yet.
    joining.catch((error) => warn(this.#describe(error)));
    this.#joining = joining;
    return true;
  }

  /**
   * A message of an IDE session opened with recorded answers. Until the session is joined, what the record
   * holds (and a ping) is answered here; anything else waits for the join, which throws if it failed.
   */
  async #answerEarly(message: JSONRPCMessage): Promise<boolean> {
    // The join sends the service its own.
    if (isNotification(message) && message.method === "notifications/initialized") return true;
    if (!this.#joined && isRequest(message)) {
      const result = message.method === "ping" ? {} : await this.#answers.give(message);
      if (result !== undefined) {
        await this.#toIde({ jsonrpc: "2.0", id: message.id, result: result as Record<string, unknown> });
        return true;
      }
    }
    await this.#joining;
    return false;
  }

  /** Asks the service for the listings the record holds, so a copy that no longer matches is replaced. */
  async #checkListings(): Promise<void> {
    await Promise.all((await this.#answers.listings()).map(async (method) => {
      const result = await this.#session.request(method, undefined, { purpose: "check" }).catch(() =>
        undefined
      );
      if (result !== undefined) await this.#compared(this.#answers.settle(method, answerWith(result)));
    }));
  }

  /**
   * The session joined the service (again): its answer to `initialize` is compared with the record, and
   * the IDE re-reads each resource it subscribes to, whose changes went unannounced meanwhile.
   */
  async #joinedAgain({ answer, resubscribed }: Joined): Promise<void> {
    const key = this.#initialize && this.#answers.keyOf(this.#initialize);
    if (key !== undefined) await this.#compared(this.#answers.settle(key, answer));
    for (const uri of resubscribed) {
      await this.#stdio.send({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } });
    }
  }

  /** When the IDE was given a recorded answer the service now answers otherwise, says so. */
  async #compared(settled: Settled | undefined): Promise<void> {
    if (!settled?.givenDiffers) return;
    warn(
      `the service's answer to ${settled.key} differs from the recorded one the IDE was given; ` +
        "the next session gets the service's",
    );
    if (settled.key === "tools/list") {
      await this.#stdio.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    }
  }

  /**
   * Runs `task` once the tasks before it are done. A task that fails is reported and the next still runs: a
   * rejection left in the chain would skip every later message and, unhandled, end the process.
   */
  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(task).catch((error) => warn(this.#describe(error)));
  }

  /**
   * Answers the IDE's request `id` with the bridge's own error, the service's answer being out of reach; as
   * an answer from the service would, it ends what the bridge tracked for that request.
   */
  #fail(id: string | number, reason: string): Promise<void> {
    return this.#toIde({ jsonrpc: "2.0", id, error: { code: UNREACHABLE, message: reason } });
  }

  /** Passes `message` to the IDE. */
  async #toIde(message: JSONRPCMessage): Promise<void> {
    if (isAnswer(message)) {
      const id = message.id;
      const key = this.#recordable.get(id);
      if (key !== undefined) {
        this.#recordable.delete(id);
        await this.#compared(this.#answers.settle(key, message));
      }
      if (this.#unanswered.delete(id) && !this.#unanswered.size) this.#allAnswered?.();
    }
    await this.#stdio.send(message);
  }

  /** A one-line reason the IDE can show; transport errors carry no token, only status and text. */
  #describe(error: unknown): string {
    if (error instanceof ServiceUnreachable) {
      // The fix travels with the reason: the IDE's log is all the person sees of an untrusted .weft/, say.
      const cause = error.cause;
      const fix = cause instanceof ClientFailure ? ` (fix: ${cause.fix})` : "";
      return `could not start the weft service for ${this.projectDir}: ${(cause as Error)?.message}${fix}`;
    }
    return `the weft service did not accept the message: ${error instanceof Error ? error.message : error}`;
  }

  async #close(): Promise<void> {
    await this.#joining?.catch(() => {});
    await this.#checking?.catch(() => {});
    await this.#session.close();
    await this.#answers.flush();
    await this.#stdio.close();
  }
}

/** A successful answer carrying `result`, as the record compares answers. */
function answerWith(result: unknown): JSONRPCMessage {
  return { jsonrpc: "2.0", id: 0, result: result as Record<string, unknown> };
}

/** Says `message` on stderr (the IDE's log of the server, or a terminal), every character of it visible. */
function warn(message: string): void {
  console.error(`weft mcp: ${visibleLine(message)}`);
}
