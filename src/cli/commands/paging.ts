/**
 * The paging options of list commands.
 *
 * @module
 */

import { UsageError } from "../args.ts";

/** Parses `--limit`: an integer from 1 to 200, as the list tools take. */
export function parseLimit(text: string): number {
  const limit = Number(text);
  if (!/^\d+$/.test(text) || limit < 1 || limit > 200) {
    throw new UsageError(`--limit takes a number from 1 to 200, not "${text}"`);
  }
  return limit;
}

/** The command line that fetches the next page: the same arguments with `--cursor` replaced. */
export function nextPageCommand(command: string, args: string[], cursor: string): string {
  const kept = args.filter((arg, i) =>
    arg !== "--cursor" && args[i - 1] !== "--cursor" && !arg.startsWith("--cursor=")
  );
  return ["weft", command, ...kept, "--cursor", cursor].join(" ");
}
