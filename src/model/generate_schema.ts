/**
 * Writes `schema/weft.schema.json` from the zod model configuration: `deno run -A src/model/generate_schema.ts`.
 *
 * @module
 */
import { modelConfigJsonSchema } from "./config.ts";

/** The file content exactly as committed (a test compares the two). */
export function renderModelConfigSchema(): string {
  return JSON.stringify(modelConfigJsonSchema(), null, 2) + "\n";
}

if (import.meta.main) {
  const target = new URL("../../schema/weft.schema.json", import.meta.url);
  Deno.writeTextFileSync(target, renderModelConfigSchema());
  console.log(`wrote ${target.pathname}`);
}
