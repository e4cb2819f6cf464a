/**
 * `weft mcp`: the stdio MCP server an IDE launches. It forwards every JSON-RPC message unchanged between the
 * IDE (stdin/stdout) and this project's service (`/mcp` or `/mcp/codex`), starting the service when it does
 * not run, so the IDE's configuration needs no token and no port. Resource subscriptions survive a restart
 * of the service: the bridge notices that its notification stream broke, joins the new instance, subscribes
 * again and tells the IDE to re-read what it subscribes to.
 *
 * When the bridge has to start the service, it answers the IDE's `initialize` and opening listings from the
 * service's last answers (`opening_answers.ts`) while the service starts, and joins the service's session
 * before it forwards the first request that needs the service.
 *
 * @module
 */

import { dirname } from "node:path";
import {
  isAnswer,
  isNotification,
  isRequest,
  isResult,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from "../client/jsonrpc.ts";
import { WeftError } from "../errors.ts";
import { HttpSession, HttpStatusError, ServiceGoneError } from "../client/http_session.ts";
import { StdioLines } from "../client/stdio_lines.ts";
import { endpointToken, verifiedConnection } from "../client/verified_connection.ts";
import type { ConnectionInfo } from "../weft_dir/connection.ts";
import { ServiceOfflineError, UntrustedStateOffline } from "../client/offline.ts";
import { type Endpoint, endpointFor } from "../mcp/endpoints.ts";
import { weftPaths } from "../weft_dir/paths.ts";
import { UsageError } from "./args.ts";
import { defineCommand } from "./command.ts";
import { EXIT } from "./exit_codes.ts";
import { CommandFailure } from "./failure.ts";
import { spawnService } from "./spawn.ts";
import { OpeningAnswers } from "./opening_answers.ts";

/** JSON-RPC "server error" code for a bridge that cannot reach its service. */
const UNREACHABLE = -32000;

/** The service could not be found or started; its message is meant for the person reading the IDE's log. */
class ServiceUnreachable extends WeftError {
  constructor(message: string) {
    super("SERVICE_OFFLINE", message);
    this.name = "ServiceUnreachable";
  }
}

/** `weft mcp [--project DIR] [--codex]` */
export const mcpCommand = defineCommand({
  name: "mcp",
  summary: "speak MCP on stdin/stdout for an IDE, bridged to the project's service",
  synopsis: "mcp [--codex]",
  description: `Speaks MCP over stdin/stdout for an IDE and forwards it to this project's service (/mcp, or
/mcp/codex with --codex), starting the service in the background when it does not run. Ends when
stdin closes, once the requests already sent have their answers (it waits up to 30 s for them).
\`weft config <ide>\` prints the entry that launches it.`,
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

/**
 * How long the bridge still waits, once the IDE has closed stdin, for the answers to the requests it sent
 * before (`printf '<initialize>\\n<tools/list>\\n' | weft mcp` must print both answers); a request still
 * unanswered then (a form waiting for a person, say) is dropped with the session.
 */
const DRAIN_MS = 30_000;

/** One IDE connection bridged to one session of the service. */
class Bridge {
  readonly #stdio = new StdioLines();
  #upstream: Promise<HttpSession> | undefined;
  /** Messages go out one at a time so the initialize request establishes the session before anything else. */
  #queue: Promise<void> = Promise.resolve();
  #initializeId: string | number | undefined;
  /** The IDE's initialize and the version it negotiated, to join a restarted service as the same client. */
  #initialize: JSONRPCRequest | undefined;
  #protocolVersion: string | undefined;
  /** Ids of the bridge's own requests (initialize, subscribe, ping), whose answers are not the IDE's business. */
  #ownIds = new Set<string>();
  #nextOwnId = 1;
  /** What the IDE subscribed to (confirmed by the service), to subscribe again after a rejoin. */
  #subscribed = new Set<string>();
  /** The IDE's subscribe requests awaiting their answer: request id → uri. */
  #subscribing = new Map<string | number, string>();
  /** The IDE's requests not answered yet, and who waits for the last of them to be. */
  #unanswered = new Set<string | number>();
  #allAnswered: (() => void) | undefined;
  #recovering = false;
  #closed = false;
  #watcher: Deno.FsWatcher | undefined;
  readonly #endpoint: Endpoint;
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
    this.#endpoint = endpointFor("agent_ide", { codex });
    this.#answers = new OpeningAnswers(weftPaths(projectDir), this.#endpoint.path);
  }

  /** Forwards until the IDE closes stdin. */
  async run(): Promise<void> {
    this.#stdio.onmessage = (message) => this.#enqueue(() => this.#toService(message));
    this.#stdio.onerror = (error) => warn(`unreadable message from the IDE: ${error.message}`);
    // Connect early so the IDE's initialize does not also wait for a service start; errors surface on use.
    this.#connect().catch(() => {});
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
        const first = this.#initializeId === undefined;
        if (!first) {
          // A second initialize (an IDE reconnecting) needs a session of its own.
          await this.#joining?.catch(() => {});
          this.#early = false;
          await this.#disconnect();
        }
        this.#initializeId = message.id;
        this.#initialize = message;
        if (first && await this.#openEarly(message)) return;
      } else if (this.#early && await this.#answerEarly(message)) return;
      this.#noteSubscription(message);
      const key = isRequest(message) ? this.#answers.keyOf(message) : undefined;
      if (key !== undefined) void this.#answers.expect((message as JSONRPCRequest).id, key);
      await this.#forward(message);
    } catch (error) {
      const reason = describe(error);
      warn(reason);
      if (isRequest(message)) await this.#fail(message.id, reason);
    }
  }

  /**
   * Sends one message upstream. When the service has restarted (its sessions are gone) or stopped meanwhile,
   * the bridge starts it if needed, joins it again with the IDE's own initialize, and sends the message once
   * more, so the IDE carries on without restarting its MCP server.
   */
  async #forward(message: JSONRPCMessage): Promise<void> {
    const upstream = await this.#connect();
    const isOwnInitialize = isRequest(message) && message.id === this.#initializeId;
    if (this.#initialize && !isOwnInitialize && upstream.sessionId === undefined) {
      // The IDE joined, but this session never did: a rejoin failed (the service refused it, or went away
      // again). The service would refuse everything without a session, so join again first.
      await this.#disconnect();
      await (await this.#rejoin()).send(message);
      return;
    }
    try {
      await upstream.send(message);
    } catch (error) {
      if (!this.#initialize || isOwnInitialize || !isLostService(error)) throw error;
      warn("the service restarted or stopped; joining it again");
      await this.#disconnect();
      await (await this.#rejoin()).send(message);
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
    this.#protocolVersion = result.protocolVersion;
    this.#early = true;
    await this.#toIde({ jsonrpc: "2.0", id: initialize.id, result });
    const joining: Promise<void> = this.#rejoin().then(() => {
      this.#joined = true;
      this.#checking = this.#checkListings();
    }, (error) => {
      if (this.#joining === joining) this.#joining = undefined;
      throw error;
    });
    // Whoever needs the session hears why it failed; nobody may be waiting yet.
    joining.catch((error) => warn(describe(error)));
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
    const upstream = await this.#connect();
    await Promise.all((await this.#answers.listings()).map(async (method) => {
      const id = this.#ownId("check");
      const settled = this.#answers.expect(id, method);
      await upstream.send({ jsonrpc: "2.0", id, method });
      await settled;
    }));
  }

  async #rejoin(): Promise<HttpSession> {
    const upstream = await this.#connect();
    if (this.#protocolVersion) upstream.setProtocolVersion(this.#protocolVersion);
    const initialize = { ...this.#initialize!, id: this.#ownId("rejoin") };
    const key = this.#answers.keyOf(initialize);
    if (key !== undefined) void this.#answers.expect(initialize.id, key);
    await upstream.send(initialize);
    await upstream.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    for (const uri of this.#subscribed) {
      await upstream.send({
        jsonrpc: "2.0",
        id: this.#ownId("resubscribe"),
        method: "resources/subscribe",
        params: { uri },
      });
      // Whatever changed while the bridge was away went unannounced: the IDE re-reads it.
      await this.#stdio.send({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } });
    }
    return upstream;
  }

  #ownId(purpose: string): string {
    const id = `weft-bridge-${purpose}-${this.#nextOwnId++}`;
    this.#ownIds.add(id);
    return id;
  }

  /** Keeps track of what the IDE subscribes to, so a rejoin can subscribe to it again. */
  #noteSubscription(message: JSONRPCMessage): void {
    if (!isRequest(message)) return;
    const uri = (message.params as { uri?: unknown } | undefined)?.uri;
    if (typeof uri !== "string") return;
    if (message.method === "resources/subscribe") this.#subscribing.set(message.id, uri);
    if (message.method === "resources/unsubscribe") this.#subscribed.delete(uri);
  }

  /**
   * The notification stream reported an error. While the IDE waits on subscriptions, the bridge checks the
   * session is still there, and if the service restarted or stopped, waits for it to run again (without
   * starting it: a person may have stopped it) and rejoins.
   */
  #streamFailed(): void {
    if (this.#recovering || this.#closed || !this.#subscribed.size || !this.#initialize) return;
    this.#recovering = true;
    this.#enqueue(() => this.#recover().finally(() => this.#recovering = false));
  }

  /**
   * Runs `task` once the tasks before it are done. A task that fails is reported and the next still runs: a
   * rejection left in the chain would skip every later message and, unhandled, end the process.
   */
  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(task).catch((error) => warn(describe(error)));
  }

  async #recover(): Promise<void> {
    try {
      const upstream = await this.#connect();
      await upstream.send({ jsonrpc: "2.0", id: this.#ownId("ping"), method: "ping" });
      // The session lives: its notification stream may have given up meanwhile, so it is opened again.
      upstream.listen();
      return;
    } catch (error) {
      if (!isLostService(error) && !(error instanceof ServiceUnreachable)) throw error;
    }
    warn("the service restarted or stopped; joining it again when it runs");
    await this.#disconnect();
    while (!this.#closed && !(await this.#runsAgain())) {
      // not yet: the next change in .weft/ is the next chance
    }
    if (!this.#closed) await this.#rejoin();
  }

  /**
   * Whether the service runs; if not, resolves false at the next change in the project's .weft folder (a
   * service starting writes its files there). The watch starts before the look, so no start goes unseen.
   */
  async #runsAgain(): Promise<boolean> {
    const dir = dirname(weftPaths(this.projectDir).connection);
    await Deno.mkdir(dir, { recursive: true });
    this.#watcher = Deno.watchFs(dir, { recursive: false });
    try {
      if (await this.#serviceRuns()) return true;
      for await (const _event of this.#watcher) break;
      return false;
    } finally {
      try {
        this.#watcher.close();
      } catch {
        // closed by #close already
      }
      this.#watcher = undefined;
    }
  }

  /** Whether the project's service runs: its lock's holder listens on its port (no token is sent). */
  async #serviceRuns(): Promise<boolean> {
    try {
      await verifiedConnection(this.projectDir);
      return true;
    } catch (error) {
      if (error instanceof ServiceOfflineError) return false;
      throw error;
    }
  }

  /**
   * Answers the IDE's request `id` with the bridge's own error, the service's answer being out of reach; as
   * an answer from the service would, it ends what the bridge tracked for that request.
   */
  #fail(id: string | number, reason: string): Promise<void> {
    return this.#toIde({ jsonrpc: "2.0", id, error: { code: UNREACHABLE, message: reason } });
  }

  /** Passes `message` to the IDE; `upstream` is the session it came from, when it came from the service. */
  async #toIde(message: JSONRPCMessage, upstream?: HttpSession): Promise<void> {
    if (isResult(message) && message.id === this.#initializeId) {
      // The SDK client does this after initialize; a raw pump must too, or later requests lack the header.
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === "string") {
        upstream?.setProtocolVersion(version);
        this.#protocolVersion = version;
      }
    }
    if (isAnswer(message)) {
      const id = message.id;
      const settled = this.#answers.settle(message);
      if (settled?.givenDiffers) {
        warn(
          `the service's answer to ${settled.key} differs from the recorded one the IDE was given; ` +
            "the next session gets the service's",
        );
        if (settled.key === "tools/list") {
          await this.#stdio.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
        }
      }
      if (this.#ownIds.delete(String(id))) return;
      if (this.#unanswered.delete(id) && !this.#unanswered.size) this.#allAnswered?.();
      const uri = this.#subscribing.get(id);
      if (uri !== undefined) {
        this.#subscribing.delete(id);
        if (isResult(message)) this.#subscribed.add(uri);
      }
    }
    await this.#stdio.send(message);
  }

  #connect(): Promise<HttpSession> {
    this.#upstream ??= this.#open().catch((error) => {
      this.#upstream = undefined;
      throw error;
    });
    return this.#upstream;
  }

  async #open(): Promise<HttpSession> {
    let connection;
    try {
      // The checks every client makes before sending a token, but no session of the bridge's own (that
      // was an initialize, a status call and a close before the IDE's initialize, on every IDE start): the
      // IDE's initialize, forwarded next, is what shows the service answers.
      connection = await verifiedConnection(this.projectDir).then((found) => {
        this.#startsService.resolve(false);
        return found;
      }, async (error) => {
        if (!(error instanceof ServiceOfflineError)) throw error;
        // Only from a .weft/ found to be weft's own may the record of answers be read.
        this.#startsService.resolve(!(error instanceof UntrustedStateOffline));
        await spawnService(this.projectDir);
        return await verifiedConnection(this.projectDir);
      });
    } catch (error) {
      this.#startsService.resolve(false);
      // The fix travels with the reason: the IDE's log is all the person sees of an untrusted .weft/, say.
      const fix = error instanceof CommandFailure ? ` (fix: ${error.fix})` : "";
      throw new ServiceUnreachable(
        `could not start the weft service for ${this.projectDir}: ${(error as Error).message}${fix}`,
      );
    }
    const endpoint = this.#endpoint;
    const upstream = new HttpSession(
      new URL(endpoint.path, connection.url),
      endpointToken(connection, endpoint),
      () => this.#stillServes(connection),
    );
    upstream.onmessage = (message) => void this.#toIde(message, upstream).catch((e) => warn(describe(e)));
    upstream.onlost = (id, error) => {
      warn(`the answer to request ${id} was lost: ${error.message}`);
      const reason = `the weft service's answer was lost (${error.message}); ` +
        "the request may or may not have taken effect";
      void this.#fail(id, reason).catch((e) => warn(describe(e)));
    };
    upstream.onerror = (error) => {
      warn(`service stream: ${describe(error)}`);
      this.#streamFailed();
    };
    return upstream;
  }

  /** Whether the instance `connection` names still holds the project's lock and listens on its port. */
  async #stillServes(connection: ConnectionInfo): Promise<boolean> {
    try {
      const now = await verifiedConnection(this.projectDir);
      return now.instanceId === connection.instanceId && now.port === connection.port;
    } catch {
      return false;
    }
  }

  async #disconnect(): Promise<void> {
    const upstream = await this.#upstream?.catch(() => undefined);
    this.#upstream = undefined;
    await upstream?.terminateSession().catch(() => {});
    await upstream?.close();
  }

  async #close(): Promise<void> {
    this.#closed = true;
    this.#watcher?.close();
    await this.#joining?.catch(() => {});
    await this.#checking?.catch(() => {});
    await this.#disconnect();
    await this.#answers.flush();
    await this.#stdio.close();
  }
}

/**
 * Whether a send failed because the service's session is gone (404), nothing listens any more, or the
 * service the session was opened with no longer runs.
 */
function isLostService(error: unknown): boolean {
  return (error instanceof HttpStatusError && error.status === 404) || error instanceof TypeError ||
    error instanceof ServiceGoneError;
}

/** A one-line reason the IDE can show; transport errors carry no token, only status and text. */
function describe(error: unknown): string {
  if (error instanceof ServiceUnreachable) return error.message;
  return `the weft service did not accept the message: ${error instanceof Error ? error.message : error}`;
}

function warn(message: string): void {
  console.error(`weft mcp: ${message}`);
}
