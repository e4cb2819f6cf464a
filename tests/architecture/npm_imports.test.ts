/**
 * Each npm package is imported (for its values) by one module of `src/` only, the one {@linkcode OWNERS}
 * names. Start-up depends on it: when `deno run` prepares the module graph, every value import of an npm
 * package makes Deno check the whole `node_modules/` again (~0.8 ms of CPU each), so sixteen modules
 * importing `zod` directly cost ~11 ms of every `weft serve` and `weft mcp`. Type-only imports cost nothing
 * at run time and may appear anywhere.
 */
import assert from "node:assert/strict";
import { relative, resolve } from "node:path";
import { importedSpecifiers, sourceFiles } from "../support/source_imports.ts";

const SRC = resolve(import.meta.dirname!, "../../src");

/** Studio's page: browser code that `deno task studio` bundles, never part of the program's module graph. */
const BROWSER_PAGE = "studio/page/";

/** Which modules (paths under `src/`) may import each npm package's values. */
const OWNERS: Record<string, readonly string[]> = {
  "zod": ["lib/zod.ts"],
  "ajv": ["engine/json_schema.ts"],
  "re2js": ["engine/linear_regexp.ts"],
  "mustache": ["engine/template_render.ts"],
  "pg": ["store/postgres/postgres_database.ts"],
  "@modelcontextprotocol/server": ["mcp/sdk.ts"],
  "ai": ["model/turn.ts"],
  "@ai-sdk/anthropic": ["model/turn.ts"],
  "@ai-sdk/openai-compatible": ["model/turn.ts"],
};

/** The package a bare or `npm:` specifier names, or undefined for relative, `node:` and other specifiers. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("node:") || specifier.includes("://")) {
    return undefined;
  }
  const name = specifier.replace(/^npm:\/?/, "");
  const parts = name.split("/");
  const pkg = name.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  return pkg.replace(/(.)@[^/]*$/, "$1");
}

/** The specifiers `source` imports for their values: static, re-exported and dynamic; not `import type`. */
export function valueImports(source: string): string[] {
  return importedSpecifiers(source, { types: false });
}

Deno.test("each npm package's values are imported by its one owning module of src/", () => {
  const misplaced: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const name = relative(SRC, file);
    if (name.startsWith(BROWSER_PAGE)) continue;
    for (const specifier of valueImports(Deno.readTextFileSync(file))) {
      const pkg = packageOf(specifier);
      if (pkg === undefined) continue;
      const owners = OWNERS[pkg];
      if (!owners) misplaced.push(`${name} imports ${specifier}, a package with no owning module in OWNERS`);
      else if (!owners.includes(name)) {
        misplaced.push(`${name} imports ${specifier}; import it from ${owners.join(" or ")} instead`);
      }
    }
  }
  assert.deepEqual(misplaced, []);
});

Deno.test("deno.json names only packages the program imports: test- and build-only ones never reach a command", async () => {
  // Deno installs every package deno.json names on the first run of any command (a newcomer's `weft init`
  // fetched playwright-core), so the browser tests and the Studio build name theirs where they import them.
  const config = JSON.parse(await Deno.readTextFile(resolve(SRC, "../deno.json")));
  const named = Object.keys(config.imports).map((key) => packageOf(key)!).sort();
  assert.deepEqual([...new Set(named)], Object.keys(OWNERS).sort());
  // What deno.lock holds is installed too: the tests, the benches and the Studio build lock theirs in
  // tests/deno.lock (every task that runs them passes --lock), so deno.lock names only what deno.json does.
  const lock = JSON.parse(await Deno.readTextFile(resolve(SRC, "../deno.lock")));
  const pinned = new Set(
    Object.values<string>(config.imports).map((target) =>
      target.replace(/^npm:\/?/, "npm:")
        .replace(/\/$/, "")
    ),
  );
  const unnamed = Object.keys(lock.specifiers).filter((specifier) => !pinned.has(specifier));
  assert.deepEqual(
    unnamed,
    [],
    "deno.lock locks packages deno.json does not name (run tests through deno task)",
  );
});

Deno.test("the npm import scan tells value imports from type-only ones and names the package", () => {
  const source = [
    `import { z } from "zod";`,
    `import type { ModelMessage } from "ai";`,
    `export { Server } from "@modelcontextprotocol/sdk/server/index.js";`,
    `export type { Tool } from "@modelcontextprotocol/sdk/types.js";`,
    `import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";`,
    `const t = await import("@ai-sdk/anthropic");`,
    `import { join } from "node:path";`,
    `import { a } from "./a.ts";`,
    `// import { b } from "zod";`,
    `import {\n  Client,\n} from "@modelcontextprotocol/sdk/client/index.js";`,
    `export const tool = define({ text: "read from " + "zod" });`,
  ].join("\n");
  const found = valueImports(source);
  assert.deepEqual(found.map(packageOf).filter((pkg) => pkg !== undefined).sort(), [
    "@ai-sdk/anthropic",
    "@modelcontextprotocol/sdk",
    "@modelcontextprotocol/sdk",
    "ajv",
    "zod",
  ]);
  assert.equal(packageOf("npm:zod@4.6.7"), "zod");
  assert.equal(packageOf("npm:/@modelcontextprotocol/sdk@1.32.2/types.js"), "@modelcontextprotocol/sdk");
});
