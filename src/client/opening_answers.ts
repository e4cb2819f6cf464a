/**
 * What `weft mcp` knows of the service's answers to the requests an IDE opens its session with: `initialize`
 * (per protocol version asked for), `tools/list` and `resources/templates/list` (first page). They depend only
 * on weft's version and the endpoint, so the bridge that has to start the service gives the copy it recorded
 * from the last real answers (`.weft/ide_answers.json`) instead of making the IDE wait for the start; every
 * real answer the service gives later is compared with the copy and replaces it when it differs.
 *
 * @module
 */

import { canonicalJson } from "../lib/canonical_json.ts";
import { isResult, type JSONRPCMessage, type JSONRPCRequest } from "./jsonrpc.ts";
import { type IdeAnswers, readIdeAnswers, recordIdeAnswers } from "../weft_dir/ide_answers.ts";
import type { WeftPaths } from "../weft_dir/paths.ts";
import { VERSION } from "../version.ts";
import { visibleLine } from "../lib/visible_text.ts";

/** The listings an IDE asks for when it opens a session; their first page is the same for every session. */
const LISTINGS = new Set(["tools/list", "resources/templates/list"]);

/** A real answer compared with the recorded copy. */
export interface Settled {
  key: string;
  /** The IDE was given the recorded copy for this request, and the service's answer is not the same. */
  givenDiffers: boolean;
}

/** One bridge's record of the opening answers of its endpoint. */
export class OpeningAnswers {
  #recorded: Promise<IdeAnswers> | undefined;
  /** What the IDE was given from the record, by key. */
  readonly #given = new Map<string, string>();
  /** The version of weft the service said it is in its last `initialize` answer. */
  #serviceVersion: string | undefined;
  #writes: Promise<void> = Promise.resolve();

  constructor(readonly paths: WeftPaths, readonly endpointPath: string) {}

  /** Which recordable request `request` is, or undefined when its answer may differ between sessions. */
  keyOf(request: JSONRPCRequest): string | undefined {
    const params = (request.params ?? {}) as Record<string, unknown>;
    if (request.method === "initialize") {
      return typeof params.protocolVersion === "string" ? `initialize ${params.protocolVersion}` : undefined;
    }
    if (!LISTINGS.has(request.method)) return undefined;
    return Object.keys(params).every((name) => name === "_meta") ? request.method : undefined;
  }

  /** The recorded listing keys: the requests to ask the service again once it runs, to check the copies. */
  async listings(): Promise<string[]> {
    return Object.keys(await this.#load()).filter((key) => LISTINGS.has(key));
  }

  /**
   * The recorded result for `request`, if any, noted as given to the IDE. Reads the record at first use;
   * call it only once `.weft/` has been verified as weft's own.
   */
  async give(request: JSONRPCRequest): Promise<unknown> {
    const key = this.keyOf(request);
    if (key === undefined) return undefined;
    const result = (await this.#load())[key];
    if (result !== undefined) this.#given.set(key, canonicalJson(result));
    return result;
  }

  /**
   * Looks at the service's answer to the request `key` names: compares it with the record, and records it if
   * it differs (only answers of a service of this very version are recorded).
   */
  settle(key: string, message: JSONRPCMessage): Settled | undefined {
    if (!isResult(message)) return undefined;
    if (key.startsWith("initialize ")) {
      this.#serviceVersion = (message.result as { serverInfo?: { version?: unknown } }).serverInfo
        ?.version as string | undefined;
    }
    const text = canonicalJson(message.result);
    const given = this.#given.get(key);
    const givenDiffers = given !== undefined && given !== text;
    if (this.#serviceVersion === VERSION) this.#record(key, text, message.result);
    return { key, givenDiffers };
  }

  /** Resolves once every record written so far is on disk (a failed write only costs the next start time). */
  flush(): Promise<void> {
    return this.#writes;
  }

  #record(key: string, text: string, result: unknown): void {
    this.#writes = this.#writes.then(async () => {
      const recorded = await this.#load();
      if (recorded[key] !== undefined && canonicalJson(recorded[key]) === text) return;
      recorded[key] = result;
      await recordIdeAnswers(this.paths, this.endpointPath, { [key]: result });
    }).catch((error) =>
      console.error(`weft mcp: could not record the service's answers: ${visibleLine(error.message)}`)
    );
  }

  #load(): Promise<IdeAnswers> {
    return this.#recorded ??= readIdeAnswers(this.paths, this.endpointPath).catch(() => ({}));
  }
}
