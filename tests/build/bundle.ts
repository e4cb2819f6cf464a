/**
 * `deno task bundle`: the whole program in one file, `dist/weft.js`, which runs from an empty directory.
 * `deno bundle` builds it; then every character beyond Latin-1 is written as a `\u` escape. V8 holds the
 * file's text for the life of the process, two bytes a character as soon as one character lies beyond Latin-1,
 * and the doc comments `deno bundle` keeps from the npm packages carry a few dashes: escaped, a service at
 * rest holds ~1 MB less (docs/performance.md). It lives beside the bench and proof programs because the
 * repository's top level is fixed.
 *
 * @module
 */

const ROOT = new URL("../../", import.meta.url).pathname;

/**
 * `text` with each UTF-16 code unit above U+00FF written as `\uXXXX`: the same program, in comments, strings,
 * regular expressions and identifiers alike (only a raw template string would read the escape itself, and
 * none holds such a character).
 */
export function latin1Escaped(text: string): string {
  return text.replace(
    /[\u0100-\uffff]/g,
    (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Builds `entry` (relative to the repository) into `output` as `deno task bundle` builds `dist/weft.js`. */
export async function buildBundle(entry: string, output: string): Promise<void> {
  const built = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--quiet", "--platform", "deno", "--output", output, entry],
    cwd: ROOT,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!built.success) {
    throw new Error(`bundle ${entry}: ${new TextDecoder().decode(built.stderr).slice(0, 300)}`);
  }
  await Deno.writeTextFile(output, latin1Escaped(await Deno.readTextFile(output)));
}

if (import.meta.main) {
  await buildBundle("main.ts", `${ROOT}dist/weft.js`);
  console.log("dist/weft.js");
}
