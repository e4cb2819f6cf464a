/**
 * `.weft/studio.json`: the project's Studio session generation, which every session's signed value names.
 * Ending every Studio session moves it on; kept here, that holds across restarts of the service. A missing
 * file is generation 0 (no session was ever ended). A file that cannot be read or understood (hand-edited) errs on the
 * safe side: a generation no session was signed for, so every session ends.
 *
 * @module
 */

import { replaceFile } from "../lib/replace_file.ts";
import type { WeftPaths } from "./paths.ts";

/** Reads and writes the generation of the project at `paths`. */
export function studioGenerations(paths: WeftPaths): {
  read(): Promise<number>;
  write(generation: number): Promise<void>;
} {
  return {
    async read() {
      let text: string;
      try {
        text = await Deno.readTextFile(paths.studioSessions);
      } catch (error) {
        // One that cannot be read is treated like one that cannot be understood.
        return error instanceof Deno.errors.NotFound ? 0 : Date.now();
      }
      try {
        const { generation } = JSON.parse(text);
        if (Number.isSafeInteger(generation) && generation >= 0) return generation;
      } catch {
        // Not weft's JSON: below.
      }
      return Date.now();
    },
    write: (generation) =>
      replaceFile(paths.studioSessions, JSON.stringify({ version: 1, generation }) + "\n", { mode: 0o600 }),
  };
}
