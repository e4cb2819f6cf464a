/**
 * `deno task compile`: builds the self-contained `weft` executable for every supported target into `dist/`
 * (`weft-<target>`, `.exe` on Windows) and writes `dist/SHA256SUMS` (`sha256sum -c` checks it). Pass
 * `--target <triple>` (repeatable) to build only some. `deno compile` downloads Deno's runtime for each
 * target the first time, so this needs a machine that can reach dl.deno.land; where it cannot, every target
 * fails with the reason and the exit code is 1. It lives beside the bench and proof programs because the
 * repository's top level is fixed.
 *
 * @module
 */

/**
 * The V8 flags built into the executable, so every weft process (service, bridge, commands) runs with them.
 * By default V8 lets the old space grow to several times what is live while allocation is brisk, so a busy
 * service holds far more than it uses; a growing factor of 1.5 keeps the heap near its live size. Under the
 * 64-session soak the service ends at ~220 MB instead of ~300 MB, for ~2% fewer calls (docs/performance.md;
 * `deno task soak --compiled-flags` measures it). A factor, not a limit: the heap still grows as far as the
 * work needs. Not passed to `deno run`: V8 keys its code cache to the flags, so a checkout's service and its
 * commands, run with different flags, would each discard the other's cache (~80 ms per start).
 */
export const V8_FLAGS = "--v8-flags=--heap-growing-percent=50";

/** Every target weft ships for. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

const ROOT = new URL("../../", import.meta.url).pathname;
const DIST = `${ROOT}dist`;

/** The executable's file name for `target`. */
export function executableName(target: string): string {
  return `weft-${target}${target.includes("windows") ? ".exe" : ""}`;
}

/** `sha256sum`-format lines (hash, two spaces, file name) for `files` in `dir`, sorted by name. */
export async function checksums(dir: string, files: string[]): Promise<string> {
  const lines: string[] = [];
  for (const file of [...files].sort()) {
    const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(`${dir}/${file}`));
    const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
    lines.push(`${hex}  ${file}`);
  }
  return lines.map((line) => `${line}\n`).join("");
}

/** The `deno compile` arguments for `target`, with the V8 flags built in. */
export function compileArgs(target: string, output: string): string[] {
  return ["compile", "-A", V8_FLAGS, "--target", target, "--output", output, `${ROOT}main.ts`];
}

async function compile(target: string): Promise<string | undefined> {
  const output = `${DIST}/${executableName(target)}`;
  const result = await new Deno.Command(Deno.execPath(), {
    args: compileArgs(target, output),
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "inherit",
    stderr: "piped",
  }).output();
  if (result.success) return undefined;
  // Deno's error chain: the line starting "error:" and the numbered causes under it.
  const lines = new TextDecoder().decode(result.stderr).split("\n");
  const start = lines.findIndex((line) => line.startsWith("error"));
  const cause = lines.slice(Math.max(start, 0)).find((line) => /^\s+1: /.test(line))?.trim();
  return [lines[start]?.trim(), cause].filter(Boolean).join(" — ") ||
    `deno compile exited with ${result.code}`;
}

async function main(args: string[]): Promise<number> {
  const asked = args.flatMap((arg, i) => args[i - 1] === "--target" ? [arg] : []);
  const unknown = asked.filter((target) => !(TARGETS as readonly string[]).includes(target));
  if (unknown.length) {
    console.error(`compile: unknown target ${unknown.join(", ")}; known: ${TARGETS.join(", ")}`);
    return 2;
  }
  const targets = asked.length ? asked : [...TARGETS];
  await Deno.mkdir(DIST, { recursive: true });
  const built: string[] = [];
  const failed: string[] = [];
  for (const target of targets) {
    console.error(`compile: ${target}`);
    const problem = await compile(target);
    if (problem) failed.push(`${target}: ${problem}`);
    else built.push(executableName(target));
  }
  if (built.length) {
    await Deno.writeTextFile(`${DIST}/SHA256SUMS`, await checksums(DIST, built));
    console.error(`compile: built ${built.join(", ")} and dist/SHA256SUMS`);
  }
  for (const line of failed) console.error(`compile: FAILED ${line}`);
  return failed.length ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
