/**
 * A command that finds no service answers without loading the MCP SDK's client: `connect` loads it once a
 * service is found. Loading the SDK and zod is ~60 ms, most of `weft status` when the service is stopped.
 */
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { moduleGraph, staticClosure } from "../support/module_graph.ts";

const ROOT = resolve(import.meta.dirname!, "../..");
const file = (path: string) => pathToFileURL(resolve(ROOT, path)).href;

Deno.test("the service commands and the client helper load no npm package until a service is found", async () => {
  const graph = await moduleGraph();
  const roots = ["main.ts", "src/cli/main.ts", "src/cli/lifecycle.ts", "src/cli/commands/client.ts"].map(
    file,
  );
  const loaded = staticClosure(graph, roots);
  const npm = [...loaded].filter((specifier) =>
    graph.get(specifier)?.npmPackage || specifier.startsWith("npm:")
  );
  assert.deepEqual(npm, [], "these npm modules load before any service is found");
  // Not vacuous: the commands reach `connect`, and `connect` reaches the SDK's client through import().
  assert.ok(loaded.has(file("src/client/connect.ts")));
  const dependencies = graph.get(file("src/client/connect.ts"))?.dependencies ?? [];
  assert.ok(
    dependencies.some((dependency) =>
      dependency.isDynamic && dependency.code?.specifier === file("src/mcp/sdk_client.ts")
    ),
  );
});
