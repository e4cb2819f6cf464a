/**
 * Every program weft starts is started in one of a few known places, and git only through the hardened runner
 * (`src/lib/hardened_git.ts`): a repository's `.git/` is as untrusted as its files, so a git started any other
 * way could run what its configuration names (an fsmonitor, a filter) with the person's whole environment.
 */
import assert from "node:assert/strict";
import { relative, resolve } from "node:path";
import { sourceFiles } from "../support/source_imports.ts";

const SRC = resolve(import.meta.dirname!, "../../src");

/** The modules that start programs, and what each starts. */
const STARTS: Record<string, string> = {
  "lib/hardened_git.ts": "git, hardened: the only module that starts it",
  "commands/process_group.ts": "a command step's trusted argument vector, as its own process group",
  "client/service_start.ts": "weft itself, as the service",
  "cli/terminal/browser.ts": "the system's opener of a URL",
};

/** What starts a program, in any form TypeScript on Deno can write it. */
const STARTING = /\bDeno\s*\.\s*(?:Command|run)\b|\bchild_process\b|\bDeno\s*\[\s*["'`](?:Command|run)["'`]/;

/** A string literal that names git as a program (`"git"`, or a path ending in `/git`). */
const NAMES_GIT = /["'`](?:[^"'`\s]*\/)?git["'`]/;

/** A source file's code without its comments. */
function code(path: string): string {
  return Deno.readTextFileSync(path).replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

Deno.test("weft starts programs only in the known modules, and git only through the hardened runner", () => {
  const files = sourceFiles(SRC);
  const starting = files.filter((path) => STARTING.test(code(path))).map((path) => relative(SRC, path))
    .sort();
  assert.deepEqual(starting, Object.keys(STARTS).sort(), "a module that starts a program is listed with why");
  const namingGit = files.filter((path) => STARTING.test(code(path)) && NAMES_GIT.test(code(path)))
    .map((path) => relative(SRC, path));
  assert.deepEqual(namingGit, ["lib/hardened_git.ts"], "only the hardened runner starts git");
});

Deno.test("the scan for programs started finds each way of starting one (the test above is not vacuous)", () => {
  for (
    const start of [
      'new Deno.Command("git", { args })',
      "Deno.run({ cmd: ['git', 'status'] })",
      'import { spawn } from "node:child_process";',
      'const { Command } = Deno; new Deno["Command"]("/usr/bin/git")',
    ]
  ) {
    assert.ok(STARTING.test(start), start);
    assert.ok(NAMES_GIT.test(start) || start.includes("child_process"), start);
  }
  assert.ok(!NAMES_GIT.test('{ check: "gitignore" }'));
});
