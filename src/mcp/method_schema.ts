/**
 * Schemas that match an MCP request by its method only, one per method for the whole service. The SDK takes
 * the method a handler answers from the schema the handler is registered with, and parses every request of
 * that method with it; zod compiles a parser for an object schema at its first parse and keeps it with the
 * schema, so a schema built for each session would be built, compiled and held again by every session.
 *
 * @module
 */

import { z } from "../lib/zod.ts";

/** A schema that accepts any request of one method, its params unchecked. */
export type MethodSchema<M extends string> = z.ZodObject<{ method: z.ZodLiteral<M> }, z.core.$loose>;

const SCHEMAS = new Map<string, MethodSchema<string>>();

/** The schema matching requests of method `name`, built at its first use and shared from then on. */
export function methodSchema<M extends string>(name: M): MethodSchema<M> {
  let schema = SCHEMAS.get(name);
  if (!schema) SCHEMAS.set(name, schema = z.looseObject({ method: z.literal(name) }));
  return schema as MethodSchema<M>;
}
