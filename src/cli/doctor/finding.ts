/**
 * What `weft doctor` reports: one finding per check, and how a path is shown in one.
 *
 * @module
 */

import { relative } from "node:path";

/** One thing doctor found: fine, worth knowing, or a problem, with the command that fixes it. */
export interface Finding {
  check:
    | "service"
    | "leftovers"
    | "port"
    | "workflows"
    | "schema"
    | "modes"
    | "git"
    | "processes"
    | "model"
    | "trust"
    | "publications";
  state: "ok" | "note" | "problem";
  message: string;
  fix?: string;
}

/** A path as a person would type it from here: relative when inside the working directory. */
export function show(path: string): string {
  const rel = relative(Deno.cwd(), path);
  return rel && !rel.startsWith("..") ? rel : path;
}
