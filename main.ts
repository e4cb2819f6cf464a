/**
 * The `weft` program: `deno run -A main.ts <command>` in a checkout, or the compiled `weft` binary.
 *
 * @module
 */

import { main } from "./src/cli/main.ts";

if (import.meta.main) Deno.exit(await main(Deno.args));
