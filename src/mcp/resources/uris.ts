/**
 * The `weft://` resource URIs: what each names, how to read one from a string with a clear refusal, and the
 * templates a client can fill in.
 *
 * @module
 */

import { ProtocolError, ProtocolErrorCode } from "../sdk.ts";

/** Where clients read the agent protocol (see `protocol_doc.ts`). */
export const PROTOCOL_DOC_URI = "weft://docs/agent-protocol";

/** The list of Runs (its first page); a change of any Run changes it. */
export const RUNS_URI = "weft://runs";

/** What a `weft://` URI names. */
export type ResourceRef =
  | { kind: "doc" }
  | { kind: "runs" }
  | { kind: "run"; runId: string; timeline: boolean }
  | { kind: "command"; runId: string }
  | { kind: "tasks"; runId: string }
  | { kind: "artifact"; flowName: string; stageName: string };

/** The templates of `resources/templates/list`. */
export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: "weft://runs/{runId}{?timeline}",
    name: "run",
    title: "A Run",
    description: "The Run as get_run returns it ({ run }, plus its timeline with ?timeline=true). " +
      "Subscribe to be notified of each change instead of polling.",
    mimeType: "application/json",
  },
  {
    uriTemplate: "weft://runs/{runId}/command",
    name: "run-command",
    title: "The output of a Run's running command",
    description: "What the command the Run runs now has printed so far ({ command: { commandId, run, " +
      "startedAt, stdout, stderr } }, each stream its last 32 KiB as { text, cutBytes }), or { command: null } " +
      "when it runs none; the ended command's result is in the Run's timeline. Subscribe to be notified as " +
      "the output grows (at most about four times a second).",
    mimeType: "application/json",
  },
  {
    uriTemplate: "weft://runs/{runId}/tasks",
    name: "run-tasks",
    title: "The tasks of a Run's list",
    description: "The items of the list the Run works through, as the Run's `list` holds them ({ runId, " +
      "flowName, status, list }: each item's id, title, status, attempts, dependencies and last verify; list " +
      "is null before the Run enters a list stage). Subscribe to be notified when an item's status, " +
      "attempts or verify changes.",
    mimeType: "application/json",
  },
  {
    uriTemplate: "weft://artifacts/{flowName}/{stageName}",
    name: "artifact",
    title: "The latest Artifact of a stage",
    description: "The stage's current Artifact as get_artifact returns it ({ artifact }). Subscribe to be " +
      "notified of each new revision; it may be subscribed before the stage first commits.",
    mimeType: "application/json",
  },
] as const;

/** The longest URI accepted; longer ones are refused without being echoed. */
const MAX_URI_CHARS = 1024;
/** Ids and names are plain tokens: no slashes, no percent-escapes, nothing to normalize. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

const USAGE = `expected ${RUNS_URI}, weft://runs/{runId}[?timeline=true], weft://runs/{runId}/command, ` +
  "weft://runs/{runId}/tasks or weft://artifacts/{flowName}/{stageName}";

/** Reads `uri`; a malformed one is refused as invalid params, quoting it (shortened) and the accepted forms. */
export function parseResourceUri(uri: unknown): ResourceRef {
  if (typeof uri !== "string") throw malformed("the uri must be a string");
  if (uri.length > MAX_URI_CHARS) throw malformed(`the uri is longer than ${MAX_URI_CHARS} characters`);
  if (uri === PROTOCOL_DOC_URI) return { kind: "doc" };
  const quoted = JSON.stringify(uri.length > 120 ? `${uri.slice(0, 120)}…` : uri);
  const match = /^weft:\/\/([^?#]*)(?:\?([^#]*))?$/.exec(uri);
  if (!match) throw malformed(`${quoted} is not a weft:// resource`);
  const [, path, query] = match;
  const segments = path.split("/");
  if (segments.some((segment) => !SEGMENT.test(segment))) throw malformed(`${quoted} is malformed`);
  const timeline = readQuery(query, quoted);
  if (segments.length === 1 && segments[0] === "runs" && !timeline.given) return { kind: "runs" };
  if (segments.length === 2 && segments[0] === "runs") {
    return { kind: "run", runId: segments[1], timeline: timeline.value };
  }
  if (segments.length === 3 && segments[0] === "runs" && segments[2] === "command" && !timeline.given) {
    return { kind: "command", runId: segments[1] };
  }
  if (segments.length === 3 && segments[0] === "runs" && segments[2] === "tasks" && !timeline.given) {
    return { kind: "tasks", runId: segments[1] };
  }
  if (segments.length === 2 && segments[0] === "docs") {
    throw resourceNotFound(`no document ${quoted}; the protocol is ${PROTOCOL_DOC_URI}`);
  }
  if (segments.length === 3 && segments[0] === "artifacts" && !timeline.given) {
    return { kind: "artifact", flowName: segments[1], stageName: segments[2] };
  }
  throw malformed(`${quoted} names no weft resource`);
}

/** The canonical URI of `ref`, as notifications and listings spell it. */
export function formatResourceUri(ref: ResourceRef): string {
  switch (ref.kind) {
    case "doc":
      return PROTOCOL_DOC_URI;
    case "runs":
      return RUNS_URI;
    case "run":
      return `weft://runs/${ref.runId}${ref.timeline ? "?timeline=true" : ""}`;
    case "command":
      return commandOutputUri(ref.runId);
    case "tasks":
      return runTasksUri(ref.runId);
    case "artifact":
      return `weft://artifacts/${ref.flowName}/${ref.stageName}`;
  }
}

/** The URI of the output of Run `runId`'s running command. */
export function commandOutputUri(runId: string): string {
  return `weft://runs/${runId}/command`;
}

/** The URI of the items of Run `runId`'s list. */
export function runTasksUri(runId: string): string {
  return `weft://runs/${runId}/tasks`;
}

/** The only query is `timeline=true|false`, on a Run. */
function readQuery(query: string | undefined, quoted: string): { given: boolean; value: boolean } {
  if (query === undefined) return { given: false, value: false };
  const match = /^timeline=(true|false)$/.exec(query);
  if (!match) throw malformed(`${quoted}: the only query is timeline=true on a Run`);
  return { given: true, value: match[1] === "true" };
}

function malformed(reason: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Malformed resource URI: ${reason}; ${USAGE}.`);
}

/**
 * The JSON-RPC error for a well-formed URI whose Run or Artifact does not exist: -32602 on every revision, as
 * MCP 2026-07-28 requires (the SDK turns the older -32002 into it on the wire anyway).
 */
export function resourceNotFound(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: ${message}`);
}
