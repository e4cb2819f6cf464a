/**
 * Replacing a file whole: the text goes to a hidden temporary file (beside it, or in a folder of the caller's
 * on the same filesystem), then a rename puts it in place, so that a reader sees the old file or the new one,
 * never half of either.
 *
 * @module
 */

import { basename, dirname, extname, join } from "node:path";
import { randomId } from "./tokens.ts";

/** Options of {@linkcode replaceFile}. */
export interface ReplaceOptions {
  /** The exact mode the file gets. */
  mode?: number;
  /** Runs once the text is written, right before the rename; when it throws, the target is left as it is. */
  beforeRename?: () => Promise<void>;
  /**
   * Where the temporary file goes instead of beside the target: a folder on the target's filesystem that the
   * person never looks at, so a write a kill cuts short leaves nothing among their files. When it is missing,
   * or on another filesystem (the rename cannot cross), the write goes beside the target after all.
   */
  folder?: string;
}

/**
 * Writes `text` to `target` atomically. The temporary file is `.STEM.ID.tmp` (STEM: the target's name
 * without its extension) in `folder` or the target's folder, created new and removed again when the write
 * fails; with `mode`, it has exactly that mode before it takes the target's place.
 */
export async function replaceFile(target: string, text: string, options: ReplaceOptions = {}): Promise<void> {
  const { folder, ...rest } = options;
  if (folder === undefined) return await writeThenRename(dirname(target), target, text, rest);
  try {
    await writeThenRename(folder, target, text, rest);
  } catch (error) {
    const missing = error instanceof Deno.errors.NotFound && !await exists(folder);
    if (!missing && (error as { code?: string }).code !== "EXDEV") throw error;
    await writeThenRename(dirname(target), target, text, rest);
  }
}

async function writeThenRename(
  folder: string,
  target: string,
  text: string,
  { mode, beforeRename }: Omit<ReplaceOptions, "folder">,
): Promise<void> {
  const temporary = join(folder, `.${basename(target, extname(target))}.${randomId(6)}.tmp`);
  try {
    await Deno.writeTextFile(temporary, text, { createNew: true, ...(mode === undefined ? {} : { mode }) });
    // The mode given at creation is narrowed by the umask; this makes it exact.
    if (mode !== undefined && Deno.build.os !== "windows") await Deno.chmod(temporary, mode);
    // The last moment to find the target changed under the caller: what throws here leaves it as it is.
    await beforeRename?.();
    await Deno.rename(temporary, target);
  } catch (error) {
    // A file that already had the temporary name is not this write's to remove.
    if (!(error instanceof Deno.errors.AlreadyExists)) await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}
