/**
 * One error hierarchy: every failure the server and the CLI raise is a `WeftError` (or a subclass of it), so
 * `instanceof WeftError` and its `code` classify it. Only `WeftError` itself extends a built-in error class;
 * the Studio page is a browser program apart and keeps its own.
 */
import assert from "node:assert/strict";
import { relative, resolve } from "node:path";
import { sourceFiles } from "../support/source_imports.ts";

const SRC = resolve(import.meta.dirname!, "../../src");
const BUILT_IN_BASE = /\bclass\s+(\w+)\s+extends\s+(?:Error|TypeError|RangeError|SyntaxError)\b/g;

Deno.test("only WeftError extends a built-in error class: every other error class derives from it", () => {
  const found = sourceFiles(SRC)
    .map((file) => relative(SRC, file))
    .filter((file) => !file.startsWith("studio/page/"))
    .flatMap((file) =>
      [...Deno.readTextFileSync(resolve(SRC, file)).matchAll(BUILT_IN_BASE)].map((match) =>
        `${file}: ${match[1]}`
      )
    );
  assert.deepEqual(found, ["errors.ts: WeftError"], "derive the error class from WeftError (src/errors.ts)");
});
