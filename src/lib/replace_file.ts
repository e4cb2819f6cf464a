/**
 * Replacing a file whole: the text goes to a hidden temporary file beside it, then a rename puts it in place,
 * so that a reader sees the old file or the new one, never half of either.
 *
 * @module
 */

import { basename, dirname, extname, join } from "node:path";
import { randomId } from "./tokens.ts";

/**
 * Writes `text` to `target` atomically. The temporary file is `.STEM.ID.tmp` in the target's folder (STEM: the
 * target's name without its extension), created new and removed again when the write fails; with `mode`, it
 * has exactly that mode before it takes the target's place. `beforeRename` runs once the text is written,
 * right before the rename; when it throws, the target is left as it is.
 */
export async function replaceFile(
  target: string,
  text: string,
  options: { mode?: number; beforeRename?: () => Promise<void> } = {},
): Promise<void> {
  const temporary = join(dirname(target), `.${basename(target, extname(target))}.${randomId(6)}.tmp`);
  const { mode } = options;
  try {
    await Deno.writeTextFile(temporary, text, { createNew: true, ...(mode === undefined ? {} : { mode }) });
    // The mode given at creation is narrowed by the umask; this makes it exact.
    if (mode !== undefined && Deno.build.os !== "windows") await Deno.chmod(temporary, mode);
    // The last moment to find the target changed under the caller: what throws here leaves it as it is.
    await options.beforeRename?.();
    await Deno.rename(temporary, target);
  } catch (error) {
    // A file that already had the temporary name is not this write's to remove.
    if (!(error instanceof Deno.errors.AlreadyExists)) await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}
