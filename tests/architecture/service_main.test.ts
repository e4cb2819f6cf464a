/**
 * The module a client starts the service from in a checkout (`src/cli/service_main.ts`) reaches `serve` and
 * the service, and no other command: Deno reads, and keeps for the life of the process, the source of every
 * module its main module's graph reaches, `import()` targets included.
 */
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { moduleGraph } from "../support/module_graph.ts";

const ROOT = resolve(import.meta.dirname!, "../..");
const file = (path: string) => pathToFileURL(resolve(ROOT, path)).href;
const COMMANDS = `${file("src/cli/commands")}/`;

/** The command modules (`src/cli/commands/*.ts`) that `main`'s graph reaches, dynamic imports included. */
async function commandsReached(main: string): Promise<string[]> {
  const graph = await moduleGraph(main);
  return [...graph.keys()].filter((specifier) => specifier.startsWith(COMMANDS))
    .map((specifier) => specifier.slice(COMMANDS.length)).sort();
}

Deno.test("the service's main module reaches serve's modules and no other command's", async () => {
  const graph = await moduleGraph("src/cli/service_main.ts");
  assert.deepEqual(await commandsReached("src/cli/service_main.ts"), ["serve.ts"]);
  assert.ok(graph.has(file("src/service/service.ts")), "the service itself is in the graph");
  // Not vacuous: main.ts reaches every command.
  const all = await commandsReached("main.ts");
  assert.ok(all.includes("serve.ts") && all.includes("status.ts") && all.length > 10, all.join(", "));
});
