/**
 * Deno's own module graph of `main.ts` or another main module (`deno info --json`), for tests that hold which
 * modules a command loads statically and which only through `import()`.
 *
 * @module
 */
import assert from "node:assert/strict";
import { resolve } from "node:path";

const ROOT = resolve(import.meta.dirname!, "../..");

/** A module of `deno info --json`. */
export interface GraphModule {
  specifier: string;
  npmPackage?: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/** The module graph of `main` (a path in the checkout), dynamic imports included. */
export async function moduleGraph(main = "main.ts"): Promise<Map<string, GraphModule>> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", main],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const { modules, redirects } = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    modules: GraphModule[];
    redirects: Record<string, string>;
  };
  const graph = new Map(modules.map((module) => [module.specifier, module]));
  // An npm import names `npm:ai@…`; the graph lists the package under the specifier it redirects to.
  for (const [from, to] of Object.entries(redirects)) {
    const module = graph.get(to);
    if (module) graph.set(from, module);
  }
  return graph;
}

/** Every module loaded when `roots` are, following static (not type-only, not dynamic) imports. */
export function staticClosure(graph: Map<string, GraphModule>, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const specifier = queue.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dependency of graph.get(specifier)?.dependencies ?? []) {
      if (dependency.code && !dependency.isDynamic) queue.push(dependency.code.specifier);
    }
  }
  return seen;
}
