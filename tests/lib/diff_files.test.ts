/** A unified diff read file by file, as a review shows it; the sample is git's own output. */
import assert from "node:assert/strict";
import { diffFiles, HUGE_FILE_LINES, summarized } from "../../src/lib/diff_files.ts";
import { unifiedDiff } from "../../src/lib/unified_diff.ts";

const GIT = Deno.readTextFileSync(new URL("./samples/git.diff", import.meta.url));

Deno.test("diff files: git's diff reads as one entry per file, with status, counts and line numbers", () => {
  const files = diffFiles(GIT);
  assert.deepEqual(
    files.map(({ path, status, binary, added, removed }) => ({ path, status, binary, added, removed })),
    [
      { path: "a.txt", status: "modified", binary: false, added: 2, removed: 2 },
      { path: "b.bin", status: "modified", binary: true, added: 0, removed: 0 },
      { path: "n.txt", status: "added", binary: false, added: 1, removed: 0 },
      { path: "old.txt", status: "deleted", binary: false, added: 0, removed: 1 },
    ],
  );
  assert.deepEqual(files[0].hunks[0].lines, [
    { kind: "same", text: "one", oldLine: 1, newLine: 1 },
    { kind: "del", text: "two", oldLine: 2 },
    { kind: "del", text: "-- three", oldLine: 3 },
    { kind: "add", text: "2", newLine: 2 },
    { kind: "same", text: "four", oldLine: 4, newLine: 3 },
    { kind: "add", text: "five", newLine: 4 },
    { kind: "note", text: "No newline at end of file" },
  ]);
  assert.deepEqual(files[2].hunks[0].lines, [{ kind: "add", text: "new", newLine: 1 }]);
  assert.equal(summarized(files[1]), true, "a binary file is summarized");
  assert.equal(summarized(files[0]), false);
});

Deno.test("diff files: a removed line that reads like a file header stays a removed line", () => {
  const diff = unifiedDiff("x.md", "a\n-- b\n++ c\nd\n", "a\nd\n", 1 << 20).diff;
  const [file] = diffFiles(diff);
  assert.equal(diffFiles(diff).length, 1);
  assert.deepEqual(file.hunks[0].lines.filter((line) => line.kind === "del").map((line) => line.text), [
    "-- b",
    "++ c",
  ]);
});

Deno.test("diff files: a diff cut mid-hunk ends there; a long file is summarized; nothing is nothing", () => {
  const cut = GIT.slice(0, GIT.indexOf("+2"));
  const [file] = diffFiles(cut);
  assert.deepEqual(file.hunks[0].lines.map((line) => line.text), ["one", "two", "-- three"]);
  const long = Array.from({ length: HUGE_FILE_LINES + 1 }, (_, i) => `line ${i}\n`).join("");
  assert.equal(summarized(diffFiles(unifiedDiff("big.txt", null, long, 1 << 20).diff)[0]), true);
  assert.deepEqual(diffFiles(""), []);
});
