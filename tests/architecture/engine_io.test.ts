/**
 * The engine does no I/O of its own: storage, the project's files and its git history are ports it owns
 * (`storage.ts`, `project_files.ts`, `project_tree.ts`, `project_changes.ts`), implemented elsewhere and
 * handed to it by the composition root. So no module of `src/engine/` imports node:fs, node:sqlite or
 * node:child_process (not even for types; statically, dynamically, or through `process.getBuiltinModule`),
 * and none calls a file or process API of Deno.
 */
import assert from "node:assert/strict";
import { relative, resolve } from "node:path";
import { importedSpecifiers, sourceFiles } from "../support/source_imports.ts";

const ENGINE = resolve(import.meta.dirname!, "../../src/engine");

const FORBIDDEN_MODULES = /^node:(fs|sqlite|child_process)(\/|$)/;

/** Deno's APIs that reach files, folders, links or processes, sync or not. */
const FILE_API =
  /\bDeno\s*\.\s*(open|create|read|write|stat|lstat|realPath|mkdir|makeTemp|remove|rename|copyFile|chmod|chown|symlink|link|truncate|utime|watchFs|Command|run|FsFile|fsync|fdatasync|flock|funlock)\w*\b/;

/** Loading a built-in module by name, which a static import scan would not see. */
const BUILTIN_LOAD = /\bgetBuiltinModule\s*\(/;

/** What in `source` does I/O the engine must not do itself, by line. */
export function engineIo(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, " "));
  const found = importedSpecifiers(source, { types: true })
    .filter((specifier) => FORBIDDEN_MODULES.test(specifier))
    .map((specifier) => `imports ${specifier}`);
  code.split("\n").forEach((line, index) => {
    const text = line.replace(/\/\/.*$/, "");
    const api = FILE_API.exec(text) ?? BUILTIN_LOAD.exec(text);
    if (api) found.push(`line ${index + 1}: ${api[0]}`);
  });
  return found;
}

Deno.test("the I/O check sees node:fs, node:sqlite, Deno's file APIs and built-ins loaded by name, not comments", () => {
  assert.deepEqual(engineIo(`import * as fs from "node:fs";`), ["imports node:fs"]);
  assert.deepEqual(engineIo(`import { DatabaseSync } from "node:sqlite";`), ["imports node:sqlite"]);
  assert.deepEqual(engineIo(`const m = await import("node:fs/promises");`), ["imports node:fs/promises"]);
  assert.deepEqual(engineIo(`const info = Deno.lstatSync(path);`), ["line 1: Deno.lstatSync"]);
  assert.deepEqual(engineIo(`\nfor await (const e of Deno.readDir(dir)) {}`), ["line 2: Deno.readDir"]);
  assert.deepEqual(engineIo(`new Deno.Command("git", {});`), ["line 1: Deno.Command"]);
  assert.deepEqual(engineIo(`process.getBuiltinModule("node:fs")`), ["line 1: getBuiltinModule("]);
  assert.deepEqual(engineIo(`// Deno.realPathSync in a comment\n/** Deno.readFile */`), []);
  assert.deepEqual(engineIo(`import type { Stats } from "node:fs";`), ["imports node:fs"]);
});

Deno.test("src/engine/ imports no node:fs, node:sqlite or node:child_process and calls no Deno file API", () => {
  const files = sourceFiles(ENGINE);
  assert.ok(files.length > 20, "the engine's modules are found");
  const wrong = files.flatMap((file) =>
    engineIo(Deno.readTextFileSync(file)).map((what) => `src/engine/${relative(ENGINE, file)}: ${what}`)
  );
  assert.deepEqual(wrong, [], "the engine does I/O itself instead of through its ports");
});
