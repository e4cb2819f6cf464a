/**
 * Untrusted text reaches a person's terminal only made visible. In `src/cli/` that holds by construction as
 * long as one module writes: `terminal/screen.ts`, which makes every control character visible and lets only
 * weft's own colours through. So no other file of the CLI may print (`console.*`) or write to a stream; new
 * output goes through `say`/`write`. The client prints only warnings of `weft mcp`, each made visible where it
 * is printed.
 */
import assert from "node:assert/strict";
import { relative, resolve } from "node:path";
import { sourceFiles } from "../support/source_imports.ts";

const SRC = resolve(import.meta.dirname!, "../../src");

/** Printing or writing to a stream, the ways a file could reach the terminal without `screen.ts`. */
const RAW_OUTPUT = /\bconsole\.\w+\(|\.writeSync\(|\.writable\b|Deno\.(?:stdout|stderr)\.write\b/;

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

Deno.test("terminal output: in src/cli/ only terminal/screen.ts writes to stdout or stderr", () => {
  const raw = sourceFiles(`${SRC}/cli`)
    .filter((file) => relative(SRC, file) !== "cli/terminal/screen.ts")
    .flatMap((file) =>
      withoutComments(Deno.readTextFileSync(file)).split("\n")
        .filter((line) => RAW_OUTPUT.test(line))
        .map((line) => `${relative(SRC, file)}: ${line.trim()}`)
    );
  assert.deepEqual(raw, [], "write through say()/write() of src/cli/terminal/screen.ts");
});

Deno.test("terminal output: what the client prints is made visible in the same call", () => {
  const raw = sourceFiles(`${SRC}/client`).flatMap((file) => {
    const source = withoutComments(Deno.readTextFileSync(file));
    return [...source.matchAll(/\bconsole\.\w+\(([^;]*)\);/g)]
      .filter((call) => !/\bvisible(?:Line|Text)\(/.test(call[1]))
      .map((call) => `${relative(SRC, file)}: ${call[0]}`);
  });
  assert.deepEqual(raw, [], "wrap what is printed in visibleLine()");
});
