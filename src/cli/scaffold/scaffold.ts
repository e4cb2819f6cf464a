/**
 * The files `weft init` writes into a project: a workflow that runs as it is, and the JSON Schemas of the
 * manifest and of `weft.json` that editors validate them with (`weft doctor` compares the project's copies
 * with these). They are embedded in the program (import attributes), so a bundle or a compiled binary
 * carries them.
 *
 * @module
 */

import TEMPLATE from "./workflow_template.json" with { type: "json" };
import SCHEMA_TEXT from "../../../schema/workflow.schema.json" with { type: "text" };
import CONFIG_SCHEMA_TEXT from "../../../schema/weft.schema.json" with { type: "text" };

/** The manifest's JSON Schema exactly as this weft publishes it (`schema/workflow.schema.json`). */
export const WORKFLOW_SCHEMA_TEXT: string = SCHEMA_TEXT;

/** Where `weft init` writes the schema, relative to the project: the template's `"$schema"` points here. */
export const SCHEMA_PATH = "workflows/workflow.schema.json";

/** Where `weft init` writes the schema of `weft.json`: `"$schema": "./workflows/weft.schema.json"` there. */
export const CONFIG_SCHEMA_PATH = "workflows/weft.schema.json";

/** A JSON Schema `weft init` keeps in the project, and what it describes. */
export interface ProjectSchema {
  path: string;
  text: string;
  of: string;
}

/** Every schema `weft init` writes, each rewritten only when it differs from this weft's. */
export const PROJECT_SCHEMAS: readonly ProjectSchema[] = [
  { path: SCHEMA_PATH, text: WORKFLOW_SCHEMA_TEXT, of: "workflow manifests" },
  { path: CONFIG_SCHEMA_PATH, text: CONFIG_SCHEMA_TEXT, of: "weft.json" },
];

/** The template for a workflow called `name` (the template's own name is `my-workflow`). */
export function scaffold(name: string): string {
  const title = name.replace(/[-_]/g, " ").replace(/^./, (first) => first.toUpperCase());
  return JSON.stringify({ ...TEMPLATE, name, title }, null, 2) + "\n";
}
