/**
 * The commands talk to the service through the client's own MCP session (`src/client/service_session.ts`, the
 * bridge's too), which loads no npm package: a command that finds no service answers without the MCP SDK and
 * zod (~60 ms, most of `weft status` when the service is stopped), and one that finds it does not load them
 * either.
 */
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { moduleGraph, staticClosure } from "../support/module_graph.ts";

const ROOT = resolve(import.meta.dirname!, "../..");
const file = (path: string) => pathToFileURL(resolve(ROOT, path)).href;

Deno.test("the service commands and the client load no npm package, the service found or not", async () => {
  const graph = await moduleGraph();
  const roots = [
    "main.ts",
    "src/cli/main.ts",
    "src/cli/commands/status.ts",
    "src/cli/commands/start.ts",
    "src/cli/commands/stop.ts",
    "src/client/weft_client.ts",
  ].map(file);
  const loaded = staticClosure(graph, roots);
  const npm = [...loaded].filter((specifier) =>
    graph.get(specifier)?.npmPackage || specifier.startsWith("npm:")
  );
  assert.deepEqual(npm, [], "these npm modules load with the service commands");
  // Not vacuous: the commands do reach the service's check and the MCP session.
  for (const path of ["src/client/verified_connection.ts", "src/client/service_session.ts"]) {
    assert.ok(loaded.has(file(path)), path);
  }
});
