/**
 * zod, for every module of weft: the one place that names the npm package. When `deno run` prepares the
 * module graph with `nodeModulesDir: "auto"`, every import of an npm package makes Deno check the whole
 * `node_modules/` again (a lock and about a hundred `access` calls, ~0.8 ms of CPU); sixteen modules
 * importing `zod` directly cost ~11 ms of every start of `weft serve` and `weft mcp`. Import `z` from here
 * instead (`tests/architecture/npm_imports.test.ts` keeps it so).
 *
 * @module
 */

export { z } from "zod";
