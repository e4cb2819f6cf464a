/**
 * `weft mcp` starts with every IDE, so it loads no npm package at all: it forwards messages without the MCP
 * SDK's schemas (the service validates what it receives), and finds the service without the SDK's client.
 * Loading the SDK and zod was most of its start, more than a bare SDK stdio server's whole start.
 */
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { moduleGraph, staticClosure } from "../support/module_graph.ts";

const ROOT = resolve(import.meta.dirname!, "../..");
const file = (path: string) => pathToFileURL(resolve(ROOT, path)).href;

Deno.test("weft mcp loads no npm package: neither the MCP SDK nor zod", async () => {
  const graph = await moduleGraph();
  const bridge = staticClosure(graph, [
    file("main.ts"),
    file("src/cli/main.ts"),
    file("src/cli/commands/mcp.ts"),
  ]);
  const npm = [...bridge].filter((specifier) =>
    graph.get(specifier)?.npmPackage || specifier.startsWith("npm:")
  );
  assert.deepEqual(npm, [], "weft mcp loads these npm modules");
  // Not vacuous: the bridge does reach its transports, its session and the service check.
  for (
    const path of [
      "src/client/http_session.ts",
      "src/client/stdio_lines.ts",
      "src/client/verified_connection.ts",
      "src/client/service_session.ts",
    ]
  ) {
    assert.ok(bridge.has(file(path)), path);
  }
});
