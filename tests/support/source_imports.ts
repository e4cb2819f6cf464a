/**
 * What the architecture tests read from weft's own source: its TypeScript files and the specifiers each one
 * imports, found in the text (comments removed) the way Deno's own syntax puts them.
 */

import { join } from "node:path";

/** Every `.ts` file under `dir`, at any depth. */
export function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...sourceFiles(path));
    else if (entry.name.endsWith(".ts")) files.push(path);
  }
  return files;
}

/**
 * The specifiers `source` imports: static, re-exported and dynamic; with `types: false`, not those of
 * `import type` / `export type` (they cost nothing at run time).
 */
export function importedSpecifiers(source: string, options: { types: boolean }): string[] {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("//"))
    .join("\n");
  const staticImport = options.types
    ? /^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/gm
    : /^\s*(?:import|export)(?!\s+type\b)\b[^;=(]*?\bfrom\s*["']([^"']+)["']/gm;
  const patterns = [
    staticImport,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1]));
}
