/**
 * Test support: the temporary files of writes (`*.tmp`) left among a project's files, outside `.weft/`.
 *
 * @module
 */

/** The files named `*.tmp` under the project `dir` (project-relative), outside `.weft/`. */
export async function temporaryFiles(dir: string, under = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(`${dir}/${under}`)) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory && path !== ".weft") found.push(...await temporaryFiles(dir, path));
    if (entry.isFile && entry.name.endsWith(".tmp")) found.push(path);
  }
  return found;
}
