/**
 * How a weft tool is declared: a name, texts for the agent, strict zod input and output schemas, honest
 * annotations, and a function that maps the input to an engine operation.
 *
 * @module
 */

import type { z } from "../lib/zod.ts";
import type { InputRequiredResult, Server, ServerContext, ToolAnnotations } from "./sdk.ts";
import type { Endpoint } from "./endpoints.ts";
import type { ServiceContext } from "./context.ts";

/** What a tool's `run` receives besides its input: where the call came in, and the means to talk back. */
export interface ToolCall {
  endpoint: Endpoint;
  service: ServiceContext;
  /**
   * The protocol revision of the call: `legacy` is 2025-11-25 (a session, elicitation on the call's stream),
   * `modern` is 2026-07-28 (sessionless; input is asked for with an `input_required` result).
   */
  era: "legacy" | "modern";
  /** The session's low-level server, for requests to the client such as elicitation. */
  server: Server;
  /** The request's context: its id, abort signal, related notifications and elicitation. */
  ctx: ServerContext;
}

/** Annotation facts a tool declares about itself; the MCP layer derives the wire annotations from them. */
export interface ToolEffects {
  /** The tool changes nothing. */
  readOnly: boolean;
  /** The tool may end or discard something a person would miss (cancel, fail). */
  destructive: boolean;
  /** Repeating the same call has no further effect. */
  idempotent: boolean;
}

/** One tool of the MCP surface. */
export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  effects: ToolEffects;
  /** The tool's result; on 2026-07-28 it may instead ask the client for input (only `interact` does). */
  run(input: z.output<I>, call: ToolCall): Promise<z.input<O> | InputRequiredResult> | z.input<O>;
}

/** Declares a tool with its types inferred from its schemas. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  definition: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  return definition;
}

/**
 * The wire annotations. Every tool is closed-world (it touches only this project's service). Codex asks for
 * approval unless a tool says it is not destructive, so `destructiveHint` is always stated (its default is
 * true); `readOnlyHint` and `idempotentHint` only when true, since false is their default. The title is the
 * tool's own, not repeated here.
 */
export function annotationsFor(effects: ToolEffects): ToolAnnotations {
  return {
    ...(effects.readOnly ? { readOnlyHint: true } : {}),
    destructiveHint: effects.destructive,
    ...(effects.idempotent ? { idempotentHint: true } : {}),
    openWorldHint: false,
  };
}
