/**
 * The folders of `src/` are layers: every import (static, re-export or dynamic) between two top-level
 * folders must be allowed by {@linkcode MAY_IMPORT}, and no folder graph, at any depth, may have a cycle.
 * docs/architecture.md walks through the same table.
 */
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { importedSpecifiers, sourceFiles } from "../support/source_imports.ts";

const SRC = resolve(import.meta.dirname!, "../../src");

/** The files directly in `src/` (`errors.ts`, `version.ts`): leaves that any folder may import. */
const ROOT = "(src)";

/** Which top-level folders each top-level folder may import, besides itself. Arrows point down. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  [ROOT]: [],
  lib: [],
  studio: ["lib"],
  engine: [ROOT, "lib"],
  store: [ROOT, "lib", "engine"],
  files: [ROOT, "lib", "engine"],
  workflows: ["engine"],
  weft_dir: [ROOT, "lib"],
  agent_calls: [ROOT, "lib", "engine"],
  mcp: [ROOT, "lib", "engine", "agent_calls"],
  model: [ROOT, "lib", "engine", "agent_calls", "files"],
  commands: [ROOT, "lib", "engine", "model"],
  http: [ROOT, "lib", "mcp", "studio"],
  // Only for what the wire carries: see CLIENT_READS.
  client: [ROOT, "lib", "engine", "mcp", "studio", "weft_dir"],
  service: [
    ROOT,
    "lib",
    "engine",
    "store",
    "files",
    "workflows",
    "weft_dir",
    "agent_calls",
    "mcp",
    "http",
    "model",
    "commands",
  ],
  // A client like any other: the service only to start it (or run it in the foreground) and for what it
  // offers in process when none need run (`service/inspect.ts`, `service/trust.ts`, …).
  cli: [ROOT, "lib", "weft_dir", "client", "service"],
};

/**
 * The modules of the service's folders the client may import: the view types and the limits the wire
 * carries, the endpoints, the SDK's message types, and where Studio's ticket is asked for. The client knows
 * the wire, not the server.
 */
const CLIENT_READS = [
  "engine/views.ts",
  "engine/answers.ts",
  "engine/command_step.ts",
  "engine/command_output.ts",
  "engine/run_tasks.ts",
  "engine/paging.ts",
  "mcp/endpoints.ts",
  "mcp/sdk.ts",
  "studio/paths.ts",
];

/**
 * The modules of `src/lib/` the Studio page may bundle besides its own files. The page is a browser program
 * apart from the server, so it shares no server code; a pure module (no import, no Deno or Node API, no
 * knowledge of weft; it may import another of them) is the exception, so that the page and the terminal render
 * Markdown from one parser, show untrusted text and commands by one rule and tell the IDE's agent one sentence
 * (`client/agent_request.ts`), instead of two copies that drift, and so that the calls whose answers the page a ticket opens carries
 * (`studio/first_view.ts`) are the page's own calls. The last test holds each of them to that.
 */
const PAGE_SHARES = [
  "lib/markdown.ts",
  "lib/field_label.ts",
  "lib/edit_script.ts",
  "lib/visible_text.ts",
  "lib/argv_text.ts",
  "lib/diff_files.ts",
  "client/reconnect.ts",
  "client/protocol_version.ts",
  "client/agent_request.ts",
  "client/answer_channel.ts",
  "studio/first_view.ts",
  "studio/first_view_html.ts",
];

/**
 * The modules the Studio page may import types from, and only types (the bundler erases them): the view
 * types of what the tools return, so that the page reads the shapes every client reads.
 */
const PAGE_TYPES = ["client/views.ts"];

/**
 * The clients' own MCP transport, which the page speaks as `weft mcp` does (`studio/page/mcp_session.ts`):
 * not pure, since it imports its parts, so the test after the last holds everything it bundles to the
 * browser's APIs and to {@linkcode PAGE_BUNDLES}.
 */
const PAGE_TRANSPORT = ["client/http_session.ts", "client/jsonrpc.ts"];

/** Every module outside the page's folder that its bundle holds (what it imports at run time, transitively). */
const PAGE_BUNDLES = [
  ...PAGE_SHARES,
  ...PAGE_TRANSPORT,
  "client/sse.ts",
  "errors.ts",
];

/** Whether the Studio page may import `to` (relative to `src/`), at run time or for its types only. */
function pageMayImport(to: string, typeOnly: boolean): boolean {
  return PAGE_SHARES.includes(to) || PAGE_TRANSPORT.includes(to) || (typeOnly && PAGE_TYPES.includes(to));
}

/** One import of one file, as a path relative to `src/`; `typeOnly` when it imports types alone. */
interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

/** The relative specifiers a TypeScript file imports: static, type-only, re-exported and dynamic. */
export function importSpecifiers(source: string): string[] {
  return importedSpecifiers(source, { types: true }).filter((specifier) => specifier.startsWith("."));
}

function edgesOfSrc(): Edge[] {
  const edges: Edge[] = [];
  for (const file of sourceFiles(SRC)) {
    const source = Deno.readTextFileSync(file);
    const atRunTime = new Set(importedSpecifiers(source, { types: false }));
    for (const specifier of importSpecifiers(source)) {
      const target = resolve(dirname(file), specifier);
      if (relative(SRC, target).startsWith("..")) {
        // Embedding a document (e.g. docs/agent-protocol.md as text) is fine; code outside src/ is not.
        assert.ok(
          !/\.[cm]?[jt]sx?$/.test(target),
          `${relative(SRC, file)} imports ${specifier}, outside src/`,
        );
        continue;
      }
      edges.push({
        from: relative(SRC, file),
        to: relative(SRC, target),
        typeOnly: !atRunTime.has(specifier),
      });
    }
  }
  return edges;
}

/** The folder of `path` (relative to `src/`) one level below `parent`, or undefined when not below it. */
function childFolder(path: string, parent: string): string | undefined {
  const rest = parent ? (path.startsWith(parent + "/") ? path.slice(parent.length + 1) : undefined) : path;
  if (rest === undefined) return undefined;
  const slash = rest.indexOf("/");
  return slash < 0 ? ROOT : rest.slice(0, slash);
}

/** A cycle in `graph` as a list of nodes (first repeated last), or null when it has none. */
export function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === "done") return null;
    if (state.get(node) === "open") return [...path.slice(path.indexOf(node)), node];
    state.set(node, "open");
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, "done");
    return null;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

/** The graph between the subfolders of `parent`; its own files are left out (they are the folder's glue). */
function folderGraph(edges: Edge[], parent: string, withOwnFiles: boolean): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const a = childFolder(from, parent);
    const b = childFolder(to, parent);
    if (a === undefined || b === undefined || a === b) continue;
    if (!withOwnFiles && (a === ROOT || b === ROOT)) continue;
    if (!graph.has(a)) graph.set(a, new Set());
    graph.get(a)!.add(b);
  }
  return graph;
}

function allFolders(dir: string, prefix = ""): string[] {
  const folders: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    if (!entry.isDirectory) continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    folders.push(path, ...allFolders(join(dir, entry.name), path));
  }
  return folders;
}

Deno.test("the import parser sees static, type-only, re-exported, multi-line and dynamic imports, not comments", () => {
  const source = [
    `import { a } from "./a.ts";`,
    `import type { B } from "../b/b.ts";`,
    `export { c } from "./c.ts";`,
    `import {`,
    `  d,`,
    `} from "./d.ts";`,
    `import "./e.ts";`,
    `import data from "./f.json" with { type: "json" };`,
    `const g = await import("./g.ts");`,
    `// import { h } from "./h.ts";`,
    `/** import("./i.ts") */`,
    `import { z } from "zod";`,
  ].join("\n");
  assert.deepEqual(
    importSpecifiers(source).sort(),
    ["../b/b.ts", "./a.ts", "./c.ts", "./d.ts", "./e.ts", "./f.json", "./g.ts"],
  );
});

Deno.test("the cycle finder finds a cycle and accepts a layered graph", () => {
  const graph = (pairs: [string, string][]) => {
    const result = new Map<string, Set<string>>();
    for (const [a, b] of pairs) result.set(a, (result.get(a) ?? new Set()).add(b));
    return result;
  };
  assert.deepEqual(findCycle(graph([["a", "b"], ["b", "c"], ["c", "a"]])), ["a", "b", "c", "a"]);
  assert.equal(findCycle(graph([["a", "b"], ["b", "c"], ["a", "c"]])), null);
});

Deno.test("every top-level folder of src/ imports only the folders below it in the layer table", () => {
  const edges = edgesOfSrc();
  const folders = new Set(allFolders(SRC).filter((path) => !path.includes("/")));
  for (const folder of folders) {
    assert.ok(folder in MAY_IMPORT, `src/${folder}/ is missing from the layer table in this test`);
  }
  const wrong = new Set<string>();
  for (const { from, to, typeOnly } of edges) {
    const a = childFolder(from, "")!;
    const b = childFolder(to, "")!;
    if (from.startsWith("studio/page/") && pageMayImport(to, typeOnly)) continue;
    if (a !== b && !MAY_IMPORT[a].includes(b)) wrong.add(`${from} → ${to} (${a} may not import ${b})`);
  }
  assert.deepEqual([...wrong], [], "imports against the layer table");
  // The page is a program of its own, bundled apart (the last tests hold its imports): its edges are not the
  // server's.
  const server = edges.filter(({ from }) => !from.startsWith("studio/page/"));
  assert.equal(findCycle(folderGraph(server, "", true)), null, "a cycle between the folders of src/");
});

Deno.test("no folder inside src/ has an import cycle between its subfolders", () => {
  const edges = edgesOfSrc();
  for (const folder of allFolders(SRC)) {
    const cycle = findCycle(folderGraph(edges, folder, false));
    assert.equal(cycle, null, `a cycle between the subfolders of src/${folder}/: ${cycle?.join(" → ")}`);
  }
});

Deno.test("the client imports of the service's folders only what the wire carries", () => {
  const wrong = edgesOfSrc()
    .filter(({ from, to }) => from.startsWith("client/") && /^(engine|mcp|http|studio)\//.test(to))
    .filter(({ to }) => !CLIENT_READS.includes(to))
    .map(({ from, to }) => `${from} → ${to}`);
  assert.deepEqual(wrong, [], "the client reaches into the server");
});

Deno.test("the Studio page's source is apart from the server: it imports only itself, its npm packages, pure shared modules and the wire's types, and only the bundle reaches the server", () => {
  const PAGE = "studio/page/";
  const wrong = edgesOfSrc()
    .filter(({ from, to }) => from.startsWith(PAGE) !== to.startsWith(PAGE))
    .filter(({ from, to, typeOnly }) => !(from.startsWith(PAGE) && pageMayImport(to, typeOnly)))
    .map(({ from, to, typeOnly }) => `${from} → ${to}${typeOnly ? " (types)" : ""}`);
  assert.deepEqual(
    wrong,
    [],
    "imports across the Studio page's boundary (the server embeds only the bundle)",
  );

  // Preact and htm by their npm specifiers, in preact.ts alone (deno.json does not name them: see there).
  const allowed = /^(npm:preact@[\d.]+(\/hooks)?|npm:htm@[\d.]+)$/;
  const packages = new Set<string>();
  for (const file of sourceFiles(join(SRC, PAGE))) {
    const source = Deno.readTextFileSync(file).replace(/\/\*[\s\S]*?\*\//g, "");
    for (const match of source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"'.][^"']*)["']/gm)) {
      const name = relative(SRC, file);
      const ui = match[1].startsWith("npm:") && name !== `${PAGE}preact.ts`;
      if (!allowed.test(match[1]) || ui) packages.add(`${name} imports ${match[1]}`);
    }
  }
  assert.deepEqual([...packages], [], "the page bundles Preact and htm, nothing else");
});

Deno.test("the modules the Studio page shares with the server are pure: they import only each other and use no runtime API", () => {
  for (const module of PAGE_SHARES) {
    const source = Deno.readTextFileSync(join(SRC, module)).replace(/\/\*[\s\S]*?\*\//g, "");
    const imported = importedSpecifiers(source, { types: true })
      .map((specifier) => relative(SRC, resolve(dirname(join(SRC, module)), specifier)));
    assert.deepEqual(
      imported.filter((to) => !PAGE_SHARES.includes(to)),
      [],
      `${module} imports only shared modules`,
    );
    assert.doesNotMatch(
      source,
      /\b(Deno|process|globalThis|document|window)\b/,
      `${module} uses no runtime API`,
    );
  }
});

Deno.test("what the Studio page bundles from outside its folder is the listed modules, which use only what a browser has", () => {
  const PAGE = "studio/page/";
  const atRunTime = edgesOfSrc().filter(({ typeOnly }) => !typeOnly);
  const bundled = new Set<string>();
  const next = atRunTime.filter(({ from, to }) => from.startsWith(PAGE) && !to.startsWith(PAGE)).map((
    { to },
  ) => to);
  while (next.length > 0) {
    const module = next.pop()!;
    if (bundled.has(module)) continue;
    bundled.add(module);
    next.push(...atRunTime.filter(({ from }) => from === module).map(({ to }) => to));
  }
  assert.deepEqual([...bundled].sort(), [...PAGE_BUNDLES].sort(), "the modules the page's bundle holds");
  for (const module of bundled) {
    const source = Deno.readTextFileSync(join(SRC, module)).replace(/\/\*[\s\S]*?\*\//g, "");
    const packages = importedSpecifiers(source, { types: false }).filter((specifier) =>
      !specifier.startsWith(".")
    );
    assert.deepEqual(packages, [], `${module} imports no package at run time`);
    assert.doesNotMatch(
      source,
      /\b(Deno|process|document|window)\b/,
      `${module} uses no runtime API of Deno`,
    );
  }
});
