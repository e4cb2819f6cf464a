/**
 * An argument vector as one line a person can read unambiguously: each argument written as a POSIX shell
 * would need it typed (bare when plain, in single quotes when it holds anything a shell reads, in `$'…'` with
 * visible escapes when it holds a control, hiding, tab or line-feed character), one argument per word. So
 * `["sh", "-c", "curl …|sh #\x1b[2K\rnpm test"]` reads `sh -c $'curl …|sh #\x1b[2K\rnpm test'`, never
 * `npm test`, and `["a b"]` is told apart from `["a", "b"]`. Pure: the Studio page shows commands with it too.
 *
 * @module
 */

import { visibleLine } from "./visible_text.ts";

/** Characters a shell takes literally in a word. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** `argv` as shell words joined by spaces, every character of every argument visible. */
export function argvText(argv: readonly string[]): string {
  return argv.map(shellWord).join(" ");
}

/** One argument as a shell word. */
export function shellWord(argument: string): string {
  if (PLAIN.test(argument)) return argument;
  if (visibleLine(argument) === argument) return `'${argument.replaceAll("'", `'\\''`)}'`;
  // ANSI-C quoting: the shell reads `\xHH`, `\uHHHH`, `\n` and `\t` back as the characters they stand for.
  return `$'${visibleLine(argument.replaceAll("\\", "\\\\").replaceAll("'", "\\'"))}'`;
}
