/**
 * The resource requests of one session: list (paged), templates, read, subscribe and unsubscribe. Reads
 * return exactly what the matching tools return (`get_run`, `get_artifact`, `list_runs`), so a client can
 * mix both; a running command's output, which no tool returns, is read from the service's memory, and a
 * Run's tasks are the `list` of the Run `get_run` returns. Every
 * refusal is a JSON-RPC error with a message, never an internal error.
 *
 * @module
 */

import { z } from "../../lib/zod.ts";
import type { Engine } from "../../engine/engine.ts";
import type { CommandOutputSource } from "../../engine/command_output.ts";
import { toWeftError } from "../../errors.ts";
import { ProtocolError, ProtocolErrorCode, type Server } from "../sdk.ts";
import { PROTOCOL_DOC, readProtocolDoc } from "../protocol_doc.ts";
import { MAX_SUBSCRIPTIONS, type Subscriptions } from "./subscriptions.ts";
import { runTasks, tasksFingerprint } from "../../engine/run_tasks.ts";
import {
  formatResourceUri,
  parseResourceUri,
  RESOURCE_TEMPLATES,
  resourceNotFound,
  type ResourceRef,
  RUNS_URI,
} from "./uris.ts";

/** The engine reads resources need. */
export type ResourceEngine = Pick<
  Engine,
  "getRun" | "getRunTimeline" | "getArtifact" | "listRuns" | "listArtifacts"
>;

/** Entries per `resources/list` page. */
export const RESOURCE_PAGE_SIZE = 50;

const JSON_MIME = "application/json";

/** Registers the resource handlers of one session on `server`. */
export function serveResources(
  server: Server,
  engine: ResourceEngine,
  output: CommandOutputSource,
  subscriptions: Subscriptions,
): void {
  server.setRequestHandler("resources/list", ANY_PARAMS, async (params) => {
    const { cursor } = paramsOf(params, ListParams);
    subscriptions.listed();
    return await guarded(() => listPage(engine, cursor));
  });
  server.setRequestHandler("resources/templates/list", () => ({
    resourceTemplates: RESOURCE_TEMPLATES.map((template) => ({ ...template })),
  }));
  server.setRequestHandler("resources/read", ANY_PARAMS, async (params) => {
    const { uri } = paramsOf(params, UriParams);
    const ref = parseResourceUri(uri);
    if (ref.kind === "doc") return readProtocolDoc(uri);
    const value = await guarded(() => read(engine, output, ref));
    return { contents: [{ uri: formatResourceUri(ref), mimeType: JSON_MIME, text: JSON.stringify(value) }] };
  });
  server.setRequestHandler("resources/subscribe", ANY_PARAMS, async (params) => {
    const { uri } = paramsOf(params, UriParams);
    const ref = parseResourceUri(uri);
    // A Run must exist; an Artifact may be awaited before its stage first commits.
    const run = ref.kind === "run" || ref.kind === "command" || ref.kind === "tasks"
      ? await guarded(() => engine.getRun(ref.runId))
      : undefined;
    if (!subscriptions.subscribe(ref, run && tasksFingerprint(run))) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `This session already subscribes to ${MAX_SUBSCRIPTIONS} resources; unsubscribe from some first.`,
      );
    }
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", ANY_PARAMS, (params) => {
    const { uri } = paramsOf(params, UriParams);
    subscriptions.unsubscribe(parseResourceUri(uri));
    return {};
  });
}

const UriParams = z.object({ uri: z.string() });
const ListParams = z.object({ cursor: z.string().max(1024).optional() });

/**
 * What the handlers are registered with: any params. The SDK checks a spec method's params with its own schema
 * when given none, and answers a mismatch -32603 (internal error) with its schema dump; {@linkcode paramsOf}
 * answers -32602 with a sentence instead.
 */
const ANY_PARAMS = { params: z.looseObject({}) };

/** `params` checked against `schema`: -32602 with a sentence saying what does not fit. */
function paramsOf<T>(params: unknown, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(params ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid params: ${issue.path.join(".") || "(params)"}: ${issue.message}`,
  );
}

async function read(
  engine: ResourceEngine,
  output: CommandOutputSource,
  ref: Exclude<ResourceRef, { kind: "doc" }>,
): Promise<unknown> {
  switch (ref.kind) {
    case "runs":
      return await engine.listRuns({});
    case "run": {
      const run = await engine.getRun(ref.runId);
      return ref.timeline ? { run, timeline: await engine.getRunTimeline(ref.runId) } : { run };
    }
    case "command":
      // The Run is read first, so an unknown one is refused rather than read as running nothing.
      await engine.getRun(ref.runId);
      return { command: output.outputOf(ref.runId) ?? null };
    case "tasks":
      return runTasks(await engine.getRun(ref.runId));
    case "artifact": {
      const artifact = await engine.getArtifact({ flowName: ref.flowName, stageName: ref.stageName });
      if (!artifact) {
        throw resourceNotFound(
          `stage "${ref.stageName}" of workflow "${ref.flowName}" has committed no Artifact yet ` +
            "(subscribe to be told when it does)",
        );
      }
      return { artifact };
    }
  }
}

/**
 * One page of `resources/list`: the agent protocol and the list of Runs first, then every Run newest first,
 * then every Artifact.
 * The cursor says which of the two sequences it continues and carries that sequence's own cursor.
 */
async function listPage(engine: ResourceEngine, cursor: string | undefined) {
  const { phase, inner } = decodeListCursor(cursor);
  const resources = [];
  if (phase === "runs") {
    if (inner === undefined) {
      resources.push(PROTOCOL_DOC);
      resources.push({ uri: RUNS_URI, name: "runs", title: "Runs, newest first", mimeType: JSON_MIME });
    }
    const page = await engine.listRuns({ limit: RESOURCE_PAGE_SIZE, cursor: inner });
    for (const run of page.runs) {
      resources.push({
        uri: formatResourceUri({ kind: "run", runId: run.runId, timeline: false }),
        name: run.runId,
        title: `${run.flowName} Run (${run.status})`,
        mimeType: JSON_MIME,
      });
    }
    return { resources, nextCursor: page.nextCursor ? `runs:${page.nextCursor}` : "artifacts:" };
  }
  const page = await engine.listArtifacts({ limit: RESOURCE_PAGE_SIZE, cursor: inner });
  for (const artifact of page.artifacts) {
    resources.push({
      uri: formatResourceUri({ kind: "artifact", ...artifact }),
      name: `${artifact.flowName}/${artifact.stageName}`,
      title: `Artifact of ${artifact.flowName} / ${artifact.stageName} (revision ${artifact.revision})`,
      mimeType: JSON_MIME,
    });
  }
  return { resources, ...(page.nextCursor ? { nextCursor: `artifacts:${page.nextCursor}` } : {}) };
}

function decodeListCursor(cursor: string | undefined): { phase: "runs" | "artifacts"; inner?: string } {
  if (cursor === undefined) return { phase: "runs" };
  const match = /^(runs|artifacts):(.*)$/.exec(cursor);
  if (!match || (match[1] === "runs" && !match[2])) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      "Invalid params: cursor is not one this service issued",
    );
  }
  return { phase: match[1] as "runs" | "artifacts", inner: match[2] || undefined };
}

/** Runs an engine read, turning its classified errors into JSON-RPC errors. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    const classified = toWeftError(error);
    if (classified.code === "NOT_FOUND") throw resourceNotFound(classified.message);
    if (classified.code === "INVALID_REQUEST") {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params: ${classified.message}`);
    }
    throw new ProtocolError(ProtocolErrorCode.InternalError, classified.message);
  }
}
