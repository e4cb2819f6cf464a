/**
 * What went wrong with a model request, classified for the person who reads the failed Run: the server
 * did not answer (retryable), it refused the request, or it answered something unreadable. Messages never
 * carry the key, and a provider's own message is cut short.
 *
 * @module
 */
import type { AgentCallFailureCode } from "../engine/agent_call_operations.ts";
import { WeftError } from "../errors.ts";

/** A classified reason to end an agent call, with the message the Run keeps. */
export class ModelFailure extends WeftError {
  declare readonly code: AgentCallFailureCode;

  constructor(code: AgentCallFailureCode, message: string) {
    super(code, message);
    this.name = "ModelFailure";
  }
}

/** The longest excerpt of a provider's message kept in a Run. */
const MAX_EXCERPT = 300;

/** The fields of the SDK's `APICallError` this module reads (duck-typed: the SDK is loaded lazily). */
interface ApiCallErrorLike {
  statusCode?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  message?: string;
  cause?: unknown;
}

/** The HTTP status of a failed request, when the server answered at all. */
export function statusOf(error: unknown): number | undefined {
  const status = (error as ApiCallErrorLike | undefined)?.statusCode;
  return typeof status === "number" ? status : undefined;
}

/** Whether the server asked to be tried again later (429 or a 5xx). */
export function isTransient(error: unknown): boolean {
  const status = statusOf(error);
  return status === 429 || (status !== undefined && status >= 500);
}

/** How long the server asked to wait, from `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  const headers = (error as ApiCallErrorLike | undefined)?.responseHeaders ?? {};
  const get = (name: string) =>
    Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1]?.trim();
  const ms = Number(get("retry-after-ms"));
  if (get("retry-after-ms") && Number.isFinite(ms) && ms >= 0) return ms;
  const after = get("retry-after");
  if (!after) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Turns whatever a request threw into a {@linkcode ModelFailure}, naming the role and model. */
export function classifyRequestFailure(error: unknown, who: string, secrets: string[]): ModelFailure {
  if (error instanceof ModelFailure) return error;
  const status = statusOf(error);
  const text = excerpt(providerMessage(error), secrets);
  if (status !== undefined && status >= 400) {
    const code = isTransient(error) ? "MODEL_UNAVAILABLE" : "MODEL_REQUEST_FAILED";
    return new ModelFailure(code, `${who}: the server answered HTTP ${status}${text ? `: ${text}` : ""}`);
  }
  if (causedBy(error, /reading a body|body.*(?:incomplete|closed)|unexpected end/i)) {
    // The server answered and the connection broke before the answer was whole: worth trying again.
    return new ModelFailure(
      "MODEL_UNAVAILABLE",
      `${who}: the connection broke before the whole answer arrived${text ? ` (${text})` : ""}`,
    );
  }
  if (isConnectionFailure(error)) {
    return new ModelFailure(
      "MODEL_UNAVAILABLE",
      `${who}: the server cannot be reached${text ? ` (${text})` : ""}`,
    );
  }
  return new ModelFailure(
    "MODEL_REQUEST_FAILED",
    `${who}: the server's answer could not be used${text ? `: ${text}` : ""}`,
  );
}

function isConnectionFailure(error: unknown): boolean {
  return causedBy(error, /connect|ECONNREFUSED|fetch failed|network/i, "ConnectionRefused");
}

/** Whether the error or one of its causes has a message matching `pattern` (or the error name `name`). */
function causedBy(error: unknown, pattern: RegExp, name?: string): boolean {
  for (let at: unknown = error, depth = 0; at && depth < 5; at = (at as ApiCallErrorLike).cause, depth++) {
    if ((name && (at as Error).name === name) || pattern.test((at as Error).message ?? "")) return true;
  }
  return false;
}

/** The provider's own words: its JSON `error.message` when it sent one, else the error's message. */
function providerMessage(error: unknown): string {
  const body = (error as ApiCallErrorLike | undefined)?.responseBody;
  if (typeof body === "string" && body) {
    try {
      const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
      const message = typeof parsed.error === "string"
        ? parsed.error
        : parsed.error?.message ?? parsed.message;
      if (typeof message === "string") return message;
    } catch {
      // not JSON: fall back to the error's message
    }
  }
  return (error as Error | undefined)?.message ?? String(error);
}

/** One line, secrets replaced, at most {@linkcode MAX_EXCERPT} characters. */
export function excerpt(text: string, secrets: string[]): string {
  let clean = text.replace(/\s+/g, " ").trim();
  for (const secret of secrets) if (secret) clean = clean.split(secret).join("[redacted]");
  // A bearer token's own characters only, so the punctuation around it stays.
  clean = clean.replace(/(bearer\s+)(?!\[redacted\])[A-Za-z0-9._~+/=-]+/gi, "$1[redacted]");
  return clean.length > MAX_EXCERPT ? `${clean.slice(0, MAX_EXCERPT)}…` : clean;
}
