/**
 * `deno task schema`: writes `schema/workflow.schema.json` from the zod manifest. It lives beside the other
 * build programs, since the engine writes no file.
 *
 * @module
 */
import { manifestJsonSchema } from "../../src/engine/workflow/manifest.ts";

/** The file content exactly as committed (a test compares the two). */
export function renderManifestSchema(): string {
  return JSON.stringify(manifestJsonSchema(), null, 2) + "\n";
}

if (import.meta.main) {
  const target = new URL("../../schema/workflow.schema.json", import.meta.url);
  Deno.writeTextFileSync(target, renderManifestSchema());
  console.log(`wrote ${target.pathname}`);
}
