/**
 * `weft serve` starts without the AI SDK: no module the serve command loads statically reaches `ai` or
 * `@ai-sdk/*`; only `src/model/turn.ts` does, and only through the `import()` the first model step runs.
 * The graph is Deno's own (`deno info --json`), so a static import added anywhere on the path fails here.
 */
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type GraphModule, moduleGraph, staticClosure } from "../support/module_graph.ts";

const ROOT = resolve(import.meta.dirname!, "../..");

const isAiSdk = (module: GraphModule | undefined) => /^(?:ai|@ai-sdk\/[^@]+)@/.test(module?.npmPackage ?? "");
const file = (path: string) => pathToFileURL(resolve(ROOT, path)).href;

Deno.test("weft serve loads no module of the AI SDK; the first model request does", async () => {
  const graph = await moduleGraph();
  const turn = file("src/model/turn.ts");
  // The serve command is itself loaded with import() by the CLI, and loads the service with import(): their
  // static closures are what serve loads.
  const serve = staticClosure(graph, [
    file("main.ts"),
    file("src/cli/commands/serve.ts"),
    file("src/service/service.ts"),
  ]);
  assert.ok(serve.has(file("src/model/executor.ts")), "the serve path no longer reaches the executor");
  const sdk = [...serve].filter((specifier) => isAiSdk(graph.get(specifier)));
  assert.deepEqual(sdk, [], `weft serve loads the AI SDK`);
  assert.ok(!serve.has(turn), "weft serve loads src/model/turn.ts");

  // Not vacuous: the SDK is in the graph, reached statically from turn.ts, which is loaded dynamically.
  const fromTurn = [...staticClosure(graph, [turn])].map((specifier) => graph.get(specifier));
  assert.ok(fromTurn.some((module) => module?.npmPackage?.startsWith("ai@")), "turn.ts does not load ai");
  assert.ok(fromTurn.some((module) => module?.npmPackage?.startsWith("@ai-sdk/openai-compatible@")));
  assert.ok(fromTurn.some((module) => module?.npmPackage?.startsWith("@ai-sdk/anthropic@")));
  const loadsTurn = [...graph.values()].filter((module) =>
    module.dependencies?.some((dependency) => dependency.code?.specifier === turn)
  );
  assert.deepEqual(loadsTurn.map((module) => fileURLToPath(module.specifier).slice(ROOT.length + 1)), [
    "src/model/executor.ts",
  ]);
});
