/**
 * JSON Schema as weft publishes it to clients and agents (tool listings, agent tasks): converted from zod,
 * without what no reader needs. Every byte of it lands in an agent's context.
 *
 * @module
 */
import { z } from "../lib/zod.ts";

/** A JSON Schema document. */
export type JsonSchema = Record<string, unknown>;

/**
 * `schema` as lean JSON Schema. Dropped: the dialect URI (2020-12 is MCP's default), the safe-integer
 * bounds zod puts on every integer, and, in output schemas, `additionalProperties: false`: it tells a
 * reader of what weft sends nothing it can act on, and leaving it out lets a validating client accept a
 * field a later weft adds. Input schemas stay closed, because unknown arguments are refused.
 */
export function publishedSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  return prune(z.toJSONSchema(schema, { io }) as JsonSchema, io === "output");
}

/** Keywords whose values are data, not schemas: copied as they are. */
const VALUES = new Set(["const", "default", "enum", "examples", "required"]);

function prune(node: unknown, output: boolean): JsonSchema {
  if (typeof node !== "object" || node === null || Array.isArray(node)) return node as JsonSchema;
  const lean: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema") continue;
    if (key === "minimum" && value === Number.MIN_SAFE_INTEGER) continue;
    if (key === "maximum" && value === Number.MAX_SAFE_INTEGER) continue;
    if (output && key === "additionalProperties" && value === false) continue;
    lean[key] = VALUES.has(key) ? value : key === "properties"
      ? Object.fromEntries(
        Object.entries(value as JsonSchema).map(([name, sub]) => [name, prune(sub, output)]),
      )
      : Array.isArray(value)
      ? value.map((item) => prune(item, output))
      : typeof value === "object" && value !== null
      ? prune(value, output)
      : value;
  }
  return lean;
}
