/**
 * The `tools/list` answer of an endpoint. Every IDE session loads it into its agent's context before the
 * person types anything, so it is kept lean: a description says what the tool does and the one rule that
 * matters at that call (the rest is said once, in the server instructions and the agent-protocol resource);
 * an output schema states the result's own fields, and a view inside it (a Run, an Artifact, a task…) only
 * as an object with its required fields. `agent_protocol.md` has the views' full shapes.
 *
 * @module
 */

import type { Tool } from "./sdk.ts";
import type { Endpoint } from "./endpoints.ts";
import { annotationsFor, type ToolDefinition } from "./tool.ts";
import { type JsonSchema, publishedSchema } from "../engine/published_schema.ts";

const LISTINGS = new WeakMap<readonly ToolDefinition[], Map<string, Tool[]>>();

/** The `tools/list` entries of `tools` on `endpoint`, built once per tool set and endpoint. */
export function listingFor(endpoint: Endpoint, tools: readonly ToolDefinition[]): Tool[] {
  let byPath = LISTINGS.get(tools);
  if (!byPath) LISTINGS.set(tools, byPath = new Map());
  let listing = byPath.get(endpoint.path);
  if (!listing) byPath.set(endpoint.path, listing = tools.map((tool) => describeTool(tool, endpoint)));
  return listing;
}

/**
 * A tool's schemas as published, converted once for every endpoint that lists the tool: the conversion
 * allocates far more than it keeps, and the heap it grows at start-up stays the service's size at rest.
 */
const SCHEMAS = new WeakMap<ToolDefinition, Pick<Tool, "inputSchema" | "outputSchema">>();

function describeTool(tool: ToolDefinition, endpoint: Endpoint): Tool {
  const title = endpoint.presentation === "codex" ? `weft · ${tool.title}` : tool.title;
  let schemas = SCHEMAS.get(tool);
  if (!schemas) {
    SCHEMAS.set(
      tool,
      schemas = {
        inputSchema: publishedSchema(tool.input, "input") as Tool["inputSchema"],
        outputSchema: outline(publishedSchema(tool.output, "output")) as Tool["outputSchema"],
      },
    );
  }
  return {
    name: tool.name,
    title,
    description: tool.description,
    ...schemas,
    annotations: annotationsFor(tool.effects),
  };
}

/**
 * A result schema whose fields keep their types, with each object inside cut to its required fields. A
 * business error's result carries `{ error }` as its structured content too, and clients check structured
 * content against this schema even on an error (the v1 SDK's does): so the result's required fields become
 * one alternative, `error` the other.
 */
function outline(result: JsonSchema): JsonSchema {
  const { required, ...rest } = result;
  const properties = result.properties as Record<string, JsonSchema>;
  return {
    ...rest,
    properties: Object.fromEntries(Object.entries(properties).map(([name, field]) => [name, cut(field)])),
    ...(Array.isArray(required) && required.length ? { anyOf: [{ required }, { required: ["error"] }] } : {}),
  };
}

function cut(field: JsonSchema): JsonSchema {
  if (Array.isArray(field.anyOf)) return { anyOf: field.anyOf.map(cut) };
  if (field.type === "array" && field.items) return { type: "array", items: cut(field.items as JsonSchema) };
  if (field.type !== "object") return field;
  const required = field.required as string[] | undefined;
  return required?.length ? { type: "object", required } : { type: "object" };
}
