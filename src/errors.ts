/**
 * The one error catalog of weft. Every layer throws {@linkcode WeftError} (or a subclass that carries more,
 * such as the CLI's fix), so `instanceof WeftError` and its `code` classify every failure; the MCP layer
 * turns it into an `isError` payload, the CLI into a message and an exit code. Nothing else may invent error
 * codes.
 *
 * @module
 */

/** Every classified error code a client can see, with whether retrying the same call can succeed. */
export const ERROR_CODES = {
  INVALID_REQUEST: { retryable: false },
  NOT_FOUND: { retryable: false },
  CONFLICT: { retryable: false },
  /** The caller's endpoint may not do this to this Run: an IDE answering for the person of a terminal's Run. */
  NOT_ALLOWED: { retryable: false },
  BUSY: { retryable: true },
  CONFIGURATION_REQUIRED: { retryable: false },
  /** The Run needs content of the project (a model entry of its weft.json) that the person has not trusted. */
  NOT_TRUSTED: { retryable: false },
  AGENT_OUTPUT_INVALID: { retryable: false },
  AGENT_CALL_FAILED: { retryable: false },
  TOOL_FAILED: { retryable: false },
  RUN_INTERRUPTED: { retryable: false },
  /** The model server did not answer (unreachable, timed out, overloaded): trying again later can work. */
  MODEL_UNAVAILABLE: { retryable: true },
  /** The model server refused the request (key, model name, request shape) or answered nonsense. */
  MODEL_REQUEST_FAILED: { retryable: false },
  /** A command step could not start: its program is missing, its project command unnamed, its folder unusable. */
  COMMAND_UNAVAILABLE: { retryable: false },
  BUDGET_EXCEEDED: { retryable: false },
  /** A list stage's items cannot be worked through: not an array, over the size bound, an id missing or repeated, a dependency unknown or circular. */
  LIST_INVALID: { retryable: false },
  /** A committed Artifact could not be written to its publish path (its template, or the file system, failed). */
  PUBLISH_FAILED: { retryable: false },
  STORAGE_ERROR: { retryable: false },
  INTERNAL: { retryable: true },
} as const;

/** A classified error code. */
export type ErrorCode = keyof typeof ERROR_CODES;

const RESUMABLE = [
  "RUN_INTERRUPTED",
  "MODEL_UNAVAILABLE",
  "COMMAND_UNAVAILABLE",
] as const satisfies readonly ErrorCode[];

/** The failures of a Run a person may resume with a retry: the agent call or command stopped, not the work. */
export const RESUMABLE_FAILURES: readonly ErrorCode[] = RESUMABLE;

/**
 * One of {@linkcode RESUMABLE_FAILURES}, as a type: what Studio's page, which bundles no server code, holds
 * its own list to.
 */
export type ResumableFailure = (typeof RESUMABLE)[number];

/**
 * The codes only the `weft` command prints: failures of the command itself rather than of a service call.
 * Under `--json` they reach stdout in the same `{"error":{code,message,retryable,fix}}` shape.
 */
export const CLI_ERROR_CODES = {
  /** The command line is wrong: an unknown command or option, a missing or malformed argument. */
  USAGE: { retryable: false },
  /** `--project` names no directory: a path that does not exist, or a file. */
  PROJECT_NOT_FOUND: { retryable: false },
  /** A file or stdin handed to the command cannot be read, or is not the JSON it must be. */
  INVALID_INPUT: { retryable: false },
  /** No service answers for the project. */
  SERVICE_OFFLINE: { retryable: true },
  /** A crashed service left state behind, or a process holds the lock without answering. */
  NEEDS_RECOVERY: { retryable: false },
  /** The port asked for with `--port` is taken by another program. */
  PORT_IN_USE: { retryable: false },
  /** The project's service already runs (elsewhere than asked, or started by another command meanwhile). */
  ALREADY_RUNNING: { retryable: false },
  /** `--output` names a file that exists, and `--overwrite` was not given. */
  OUTPUT_EXISTS: { retryable: false },
  /** A file the command writes (`--output`, `weft init`'s) cannot be written there. */
  OUTPUT_UNWRITABLE: { retryable: false },
  /** `weft init NAME` names a workflow the project, or weft itself, already has. */
  WORKFLOW_EXISTS: { retryable: false },
  /** Anything unclassified; the message says what happened. */
  FAILURE: { retryable: false },
} as const;

/** A code only the `weft` command prints. */
export type CliErrorCode = keyof typeof CLI_ERROR_CODES;

/** Any code of the catalog: one a service's client can see, or one only the `weft` command prints. */
export type WeftErrorCode = ErrorCode | CliErrorCode;

/** Whether `code` is one a service's client can see. */
export function isServiceErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(ERROR_CODES, code);
}

/** Whether `code` is any code of the catalog (e.g. read back from `weft serve`'s ready line). */
export function isWeftErrorCode(code: unknown): code is WeftErrorCode {
  return isServiceErrorCode(code) || (typeof code === "string" && Object.hasOwn(CLI_ERROR_CODES, code));
}

/** Whether retrying the same call can succeed, as the catalog says of `code`. */
export function isRetryable(code: WeftErrorCode): boolean {
  return isServiceErrorCode(code) ? ERROR_CODES[code].retryable : CLI_ERROR_CODES[code].retryable;
}

/** The wire shape of an error: what tools return and Runs keep as `lastError`. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  retryable: boolean;
}

/** A classified failure whose message is safe to show to any client (no paths, tokens or stacks). */
export class WeftError extends Error {
  readonly code: WeftErrorCode;
  readonly retryable: boolean;

  constructor(code: WeftErrorCode, message: string, options?: { retryable?: boolean; cause?: unknown }) {
    super(message, { cause: options?.cause });
    this.name = "WeftError";
    this.code = code;
    this.retryable = options?.retryable ?? isRetryable(code);
  }
}

/** A {@linkcode WeftError} whose code a service's client may see. */
export type ServiceError = WeftError & { readonly code: ErrorCode };

/**
 * Classifies anything thrown in the service. Unknown failures become `INTERNAL` with a generic message,
 * because their text may carry a path of the machine or a stack; the original stays as `cause` for the log.
 * A failure with a code only the `weft` command prints is unknown here too: no client of the service sees it.
 */
export function toWeftError(error: unknown): ServiceError {
  if (error instanceof WeftError && isServiceErrorCode(error.code)) return error as ServiceError;
  return new WeftError("INTERNAL", "An unexpected internal error occurred; the service log has details.", {
    cause: error,
  }) as ServiceError;
}

/** The payload clients see for anything thrown (classified by {@linkcode toWeftError}). */
export function errorPayload(error: unknown): ErrorPayload {
  const { code, message, retryable } = toWeftError(error);
  return { code, message, retryable };
}

/** Shorthand constructors that read like the sentence they throw. */
export const invalid = (message: string) => new WeftError("INVALID_REQUEST", message);
export const notFound = (message: string) => new WeftError("NOT_FOUND", message);
export const conflict = (message: string) => new WeftError("CONFLICT", message);
export const busy = (message: string) => new WeftError("BUSY", message);

/**
 * What a log may say about a failure: its class name and OS code (`NotFound`, `ENOENT`), never its message,
 * which for file and network errors carries absolute paths and raw OS text.
 */
export function errorKind(error: unknown): { error: string; code?: string } {
  // A subclass keeps its own name (`ModelFailure`, `LockHeldError`): the log tells them apart.
  if (error instanceof WeftError) return { error: error.name, code: error.code };
  const name = error instanceof Error ? error.name : typeof error;
  const code = (error as { code?: unknown })?.code;
  return typeof code === "string" && /^[A-Z0-9_]{1,40}$/.test(code) ? { error: name, code } : { error: name };
}
