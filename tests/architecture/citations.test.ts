/**
 * The contract lives in the repository: code, help texts and docs point at docs/reference.md (or the agent
 * protocol), never at a specification the repository does not hold.
 */
import assert from "node:assert/strict";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname!, "../..");
const OUTSIDE_CITATION = new RegExp(["SPEC", "\\s*§"].join(""));

function textFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) files.push(...textFiles(path));
    else if (/\.(ts|md|json)$/.test(entry.name)) files.push(path);
  }
  return files;
}

Deno.test("no file cites a specification section the repository does not hold", () => {
  const files = [
    ...["src", "tests", "docs"].flatMap((dir) => textFiles(join(ROOT, dir))),
    join(ROOT, "README.md"),
    join(ROOT, "main.ts"),
  ];
  const citing = files.filter((file) => OUTSIDE_CITATION.test(Deno.readTextFileSync(file)))
    .map((file) => relative(ROOT, file));
  assert.deepEqual(citing, [], "cite docs/reference.md instead");
});
