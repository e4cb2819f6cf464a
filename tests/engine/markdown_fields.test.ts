/**
 * Which strings hold Markdown: the pointers the engine hands clients beside a confirmation's context and an
 * Artifact's data, found through the schema's properties, additional properties and items.
 */

import assert from "node:assert/strict";
import { markdownPointers, schemaAt } from "../../src/engine/markdown_fields.ts";
import { loadWorkflow } from "../../src/engine/workflow/loader.ts";
import { EMBEDDED_WORKFLOWS } from "../../src/workflows/embedded.ts";

const MD = { type: "string", contentMediaType: "text/markdown" };

Deno.test("markdown fields: strings marked text/markdown, by pointer, through objects, maps and lists", () => {
  const schema = {
    type: "object",
    properties: {
      summary: MD,
      title: { type: "string" },
      "a/b": MD,
      tasks: { type: "array", items: { type: "object", properties: { description: MD } } },
      notes: { type: "object", additionalProperties: MD },
      pair: { type: "array", prefixItems: [{ type: "string" }, MD] },
    },
  };
  const value = {
    summary: "**s**",
    title: "**t**",
    "a/b": "x",
    tasks: [{ description: "d0" }, { description: "d1" }, { other: "o" }],
    notes: { first: "n" },
    pair: ["p0", "p1"],
    extra: "e",
  };
  assert.deepEqual(markdownPointers(schema, value), [
    "/summary",
    "/a~1b",
    "/tasks/0/description",
    "/tasks/1/description",
    "/notes/first",
    "/pair/1",
  ]);
  assert.deepEqual(markdownPointers(schema, { summary: 42 }), [], "only strings");
  assert.deepEqual(markdownPointers(schemaAt(schema, "/tasks"), value.tasks), [
    "/0/description",
    "/1/description",
  ]);
  assert.deepEqual(markdownPointers(MD, "# whole"), [""], "a value that is itself Markdown");
});

Deno.test("markdown fields: the built-in intent workflow loads with the keyword and marks its prose", () => {
  const source = EMBEDDED_WORKFLOWS.find((workflow) => workflow.dirName === "intent")!;
  const loaded = loadWorkflow({ ...source, prechecked: false });
  assert.ok(loaded.ok, loaded.ok ? "" : loaded.reason);
  const specification = loaded.workflow.manifest.stages.specification.state.schema;
  const spec = {
    summary: "**CSV export**",
    goals: ["g"],
    requirements: [{ id: "R1", statement: "s", acceptance: ["a"] }],
    constraints: [],
  };
  assert.deepEqual(markdownPointers(schemaAt(specification, "/specification"), spec), [
    "/summary",
    "/requirements/0/statement",
  ]);
});
