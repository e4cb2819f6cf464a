/**
 * The paging of list commands: the `--limit` and `--cursor` options, and the command of the next page.
 *
 * @module
 */

import type { IntegerOption, TextOption } from "./args.ts";
import { PAGE_SIZE, PAGE_SIZE_TEXT } from "../../client/views.ts";

/** The paging options, as list commands declare them. */
export function pagingOptions(what: string): { limit: IntegerOption; cursor: TextOption } {
  return {
    limit: {
      type: "integer",
      arg: "N",
      min: PAGE_SIZE.min,
      max: PAGE_SIZE.max,
      help: `at most N ${what} (${PAGE_SIZE_TEXT})`,
    },
    cursor: {
      type: "string",
      arg: "C",
      help: "the next page: the cursor printed by the previous page, with the same filters",
    },
  };
}

/** The command line that fetches the next page: the same arguments with `--cursor` replaced. */
export function nextPageCommand(command: string, args: string[], cursor: string): string {
  const kept = args.filter((arg, i) =>
    arg !== "--cursor" && args[i - 1] !== "--cursor" && !arg.startsWith("--cursor=")
  );
  return ["weft", command, ...kept, "--cursor", cursor].join(" ");
}
