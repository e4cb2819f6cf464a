/**
 * Unified diffs as `diff -u` writes them (the edit tools' timeline events are read by people used to it, and
 * by git), and their cut: at a line's end, within the bound, the bytes left out counted.
 */
import assert from "node:assert/strict";
import { bounded, unifiedDiff } from "../../src/lib/unified_diff.ts";
import { Prng } from "../proof/prng.ts";

/** `before` with `diff` applied by git (which checks every hunk's counts and context), as read back. */
function applied(before: string, diff: string): string {
  const dir = Deno.makeTempDirSync({ prefix: "weft-diff-" });
  try {
    Deno.writeTextFileSync(`${dir}/f.txt`, before);
    Deno.writeTextFileSync(`${dir}/change.diff`, diff);
    const out = new Deno.Command("git", { args: ["apply", "change.diff"], cwd: dir, stderr: "piped" })
      .outputSync();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    return Deno.readTextFileSync(`${dir}/f.txt`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("unified diff: git applies it and gets the new text, final newline or not", () => {
  const prng = new Prng(7);
  const next = () => prng.next();
  const text = () =>
    Array.from({ length: 1 + Math.floor(next() * 30) }, () => `line ${Math.floor(next() * 8)}`).join("\n") +
    (next() < 0.7 ? "\n" : "");
  for (let i = 0; i < 60; i++) {
    const before = text();
    const after = text();
    const { diff } = unifiedDiff("f.txt", before, after, Infinity);
    if (before === after) assert.equal(diff, "");
    else assert.equal(applied(before, diff), after, JSON.stringify({ before, after, diff }));
  }
});

Deno.test("unified diff: one change in a long file is one hunk with three lines of context, as diff -u writes it", () => {
  const before = Array.from({ length: 10 }, (_, i) => `line ${i}`).join("\n") + "\n";
  const after = before.replace("line 5", "line five") + "line 10\n";
  assert.equal(
    unifiedDiff("f.txt", before, after, Infinity).diff,
    "--- a/f.txt\n+++ b/f.txt\n@@ -3,8 +3,9 @@\n line 2\n line 3\n line 4\n-line 5\n+line five\n line 6\n" +
      " line 7\n line 8\n line 9\n+line 10\n",
  );
  assert.equal(
    unifiedDiff("f.txt", "x", "x\n", Infinity).diff,
    "--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n",
  );
});

Deno.test("unified diff: a created or removed file is compared with /dev/null", () => {
  assert.equal(
    unifiedDiff("n.md", null, "a\nb\n", Infinity).diff,
    "--- /dev/null\n+++ b/n.md\n@@ -0,0 +1,2 @@\n+a\n+b\n",
  );
  assert.equal(
    unifiedDiff("n.md", "a\n", null, Infinity).diff,
    "--- a/n.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n",
  );
});

Deno.test("unified diff: cut at a line's end within the bound, with the bytes left out counted", () => {
  const whole = "first line\nsecond line\nthird\n";
  assert.deepEqual(bounded(whole, 1000), { diff: whole, cutBytes: 0 });
  assert.deepEqual(bounded(whole, 25), { diff: "first line\nsecond line\n", cutBytes: 6 });
  // One line longer than the bound is cut inside it, never inside a character.
  const wide = "ééééé\n";
  const cut = bounded(wide, 5);
  assert.equal(cut.diff, "éé");
  assert.equal(cut.cutBytes, new TextEncoder().encode(wide).length - 4);
});
