/**
 * Which strings of a value hold Markdown: those whose schema says `"contentMediaType": "text/markdown"`.
 * Clients get them as JSON pointers beside the value (a confirmation's context, an Artifact's data), so
 * every surface renders the same fields as Markdown and leaves the rest as text. Schemas are followed
 * through `properties`, `additionalProperties`, `prefixItems` and `items`.
 *
 * @module
 */

import { escapeToken, pointerTokens } from "./json_pointer.ts";
import type { StageDef } from "./workflow/manifest.ts";

/** The media type that marks a string field as Markdown. */
export const MARKDOWN = "text/markdown";

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schema of the value at `key` inside a value of `schema`, if the schema says. */
function childSchema(schema: Schema, key: string, inArray: boolean): Schema | undefined {
  if (inArray) {
    const index = Number(key);
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems[index] : undefined;
    const found = prefix ?? schema.items;
    return isSchema(found) ? found : undefined;
  }
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const found = Object.hasOwn(properties, key) ? properties[key] : schema.additionalProperties;
  return isSchema(found) ? found : undefined;
}

/** The part of `schema` that describes the value at `pointer`, when the schema says (arrays by number). */
export function schemaAt(schema: unknown, pointer: string): Schema | undefined {
  let current = isSchema(schema) ? schema : undefined;
  for (const token of pointerTokens(pointer)) {
    if (!current) return undefined;
    current = childSchema(current, token, /^\d+$/.test(token) && !isSchema(current.properties));
  }
  return current;
}

/** The JSON pointers (from `value`'s root) of the strings in `value` that `schema` marks as Markdown. */
export function markdownPointers(schema: unknown, value: unknown, at = ""): string[] {
  if (!isSchema(schema)) return [];
  if (typeof value === "string") return schema.contentMediaType === MARKDOWN ? [at] : [];
  if (typeof value !== "object" || value === null) return [];
  const inArray = Array.isArray(value);
  return Object.entries(value).flatMap(([key, item]) =>
    markdownPointers(childSchema(schema, key, inArray), item, `${at}/${escapeToken(key)}`)
  );
}

/**
 * The Markdown pointers of `data` committed by `stage`: its state schema at what its commit steps commit
 * (a stage's commit steps commit one part of its state in every workflow we know; with several, each
 * one's schema is asked).
 */
export function committedMarkdown(stage: StageDef, data: unknown): string[] {
  const pointers = new Set<string>();
  for (const step of Object.values(stage.steps)) {
    if (step.kind !== "commit") continue;
    for (const pointer of markdownPointers(schemaAt(stage.state.schema, step.data), data)) {
      pointers.add(pointer);
    }
  }
  return [...pointers];
}
