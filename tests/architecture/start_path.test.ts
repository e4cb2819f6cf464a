/**
 * `weft serve` checks and locks `.weft/` while the service's modules load: the serve command's static closure
 * holds neither the service nor the MCP SDK (the service comes through serve's `import()`), so the claim's
 * file-system work and its git call run beside most of a start instead of after it. And nothing the service
 * loads statically imports node:fs (~5–9 ms of CPU): file reads load it at the first read.
 */
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { moduleGraph, staticClosure } from "../support/module_graph.ts";

const ROOT = resolve(import.meta.dirname!, "../..");
const file = (path: string) => pathToFileURL(resolve(ROOT, path)).href;

Deno.test("weft serve claims .weft/ before, not after, the service and the MCP SDK load", async () => {
  const graph = await moduleGraph();
  const serve = staticClosure(graph, [file("main.ts"), file("src/cli/commands/serve.ts")]);
  assert.ok(serve.has(file("src/weft_dir/claim.ts")), "the serve command no longer claims .weft/ itself");
  assert.ok(!serve.has(file("src/service/service.ts")), "the serve command loads the service statically");
  const sdk = [...serve].filter((specifier) =>
    graph.get(specifier)?.npmPackage?.startsWith("@modelcontextprotocol/")
  );
  assert.deepEqual(sdk, [], "the serve command loads the MCP SDK before it claims .weft/");

  // Not vacuous: serve reaches the service through import(), and the service reaches the SDK.
  const dependencies = graph.get(file("src/cli/commands/serve.ts"))?.dependencies ?? [];
  assert.ok(
    dependencies.some((dependency) =>
      dependency.isDynamic && dependency.code?.specifier === file("src/service/service.ts")
    ),
  );
  const service = staticClosure(graph, [file("src/service/service.ts")]);
  assert.ok(
    [...service].some((specifier) => graph.get(specifier)?.npmPackage?.startsWith("@modelcontextprotocol")),
  );
});

Deno.test("nothing weft serve loads statically imports node:fs; the first confined read loads it", async () => {
  const graph = await moduleGraph();
  const roots = ["main.ts", "src/cli/commands/serve.ts", "src/service/service.ts"].map(file);
  const loaded = staticClosure(graph, roots);
  const importers = [...loaded].filter((specifier) =>
    (graph.get(specifier)?.dependencies ?? []).some((dependency) =>
      !dependency.isDynamic && /^node:fs(\/|$)/.test(dependency.code?.specifier ?? "")
    )
  );
  assert.deepEqual(importers, [], "these modules of weft serve import node:fs");
  // Not vacuous: the service does reach the module that reads project files.
  assert.ok(loaded.has(file("src/files/confined_reads.ts")));
});
