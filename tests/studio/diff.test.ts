/**
 * The Artifact diff of Studio, on its own: line diffs that rebuild both sides and are minimal, JSON changes
 * by path (an inserted list item is one insertion, key order is no change, text inside JSON is diffed by
 * line), and a bounded cost for two texts with nothing in common.
 */

import assert from "node:assert/strict";
import {
  canonical,
  diffRevisions,
  jsonDiff,
  lineDiff,
  unifiedDiffLines,
} from "../../src/studio/page/diff.ts";
import { unifiedDiff } from "../../src/lib/unified_diff.ts";
import { editScript, MAX_EDITS } from "../../src/lib/edit_script.ts";

/** The two texts a line diff stands for. */
function sides(lines: { kind: string; text: string }[]): [string[], string[]] {
  return [
    lines.filter((line) => line.kind !== "add").map((line) => line.text),
    lines.filter((line) => line.kind !== "del").map((line) => line.text),
  ];
}

/** A small deterministic generator (mulberry32), so a failure is reproducible from its seed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The length of a longest common subsequence, by the textbook table (small inputs only). */
function lcsLength(a: string[], b: string[]): number {
  const table = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      table[i][j] = a[i - 1] === b[j - 1]
        ? table[i - 1][j - 1] + 1
        : Math.max(table[i - 1][j], table[i][j - 1]);
    }
  }
  return table[a.length][b.length];
}

Deno.test("studio diff: a Markdown revision reads as the lines kept, deleted and added", () => {
  const before = "# Plan\n\n- parse input\n- write output\n";
  const after = "# Plan\n\n- parse input\n- validate input\n- write the output\n";
  assert.deepEqual(lineDiff(before, after), [
    { kind: "same", text: "# Plan" },
    { kind: "same", text: "" },
    { kind: "same", text: "- parse input" },
    { kind: "del", text: "- write output" },
    { kind: "add", text: "- validate input" },
    { kind: "add", text: "- write the output" },
  ]);
  assert.deepEqual(
    lineDiff("same\n", "same"),
    [{ kind: "same", text: "same" }],
    "a final newline is no line",
  );
  assert.deepEqual(lineDiff("", "a\nb"), [{ kind: "add", text: "a" }, { kind: "add", text: "b" }]);
  assert.deepEqual(lineDiff("a\r\nb", "a\nb"), [{ kind: "same", text: "a" }, { kind: "same", text: "b" }]);
});

Deno.test("studio diff: for random texts, the line diff rebuilds both sides and keeps a longest common part", () => {
  const next = random(7);
  const words = ["alpha", "beta", "gamma", "delta", ""];
  const text = () =>
    Array.from({ length: Math.floor(next() * 12) }, () => words[Math.floor(next() * words.length)]);
  for (let round = 0; round < 500; round++) {
    const a = text();
    const b = text();
    const lines = lineDiff(a.join("\n"), b.join("\n"));
    const [left, right] = sides(lines);
    const expectA = a.join("\n") === "" ? [] : a.join("\n").split("\n");
    const expectB = b.join("\n") === "" ? [] : b.join("\n").split("\n");
    if (expectA.at(-1) === "") expectA.pop();
    if (expectB.at(-1) === "") expectB.pop();
    assert.deepEqual(left, expectA, `round ${round}: the old side`);
    assert.deepEqual(right, expectB, `round ${round}: the new side`);
    const kept = lines.filter((line) => line.kind === "same").length;
    assert.equal(kept, lcsLength(expectA, expectB), `round ${round}: minimal`);
  }
});

Deno.test("studio diff: two texts with nothing in common past the edit bound are replaced whole, quickly and correctly", () => {
  const a = Array.from({ length: MAX_EDITS * 2 }, (_, i) => `old ${i}`);
  const b = Array.from({ length: MAX_EDITS * 2 }, (_, i) => `new ${i}`);
  const steps = editScript(["head", ...a, "tail"], ["head", ...b, "tail"]);
  assert.equal(steps.filter((step) => step.kind === "same").length, 2, "the common ends are kept");
  assert.equal(steps.filter((step) => step.kind === "del").length, a.length);
  assert.equal(steps.filter((step) => step.kind === "add").length, b.length);
});

Deno.test("studio diff: JSON changes are listed by path; key order is no change", () => {
  const before = { title: "Plan", owner: { name: "Ann", team: "core" }, draft: true };
  const after = { owner: { team: "core", name: "Bob" }, title: "Plan", reviewed: "yes" };
  assert.deepEqual(jsonDiff(before, after), [
    { kind: "removed", path: "draft", before: true },
    { kind: "changed", path: "owner.name", before: "Ann", after: "Bob" },
    { kind: "added", path: "reviewed", after: "yes" },
  ]);
  assert.deepEqual(jsonDiff({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }), []);
  assert.equal(canonical({ b: 1, a: [true, null] }), '{"a":[true,null],"b":1}');
  assert.deepEqual(jsonDiff({ "odd key": 1 }, { "odd key": 2 }), [
    { kind: "changed", path: '["odd key"]', before: 1, after: 2 },
  ]);
  assert.deepEqual(jsonDiff(1, "1"), [{ kind: "changed", path: "", before: 1, after: "1" }]);
});

Deno.test("studio diff: a list item inserted in the middle is one insertion, a changed item is compared inside", () => {
  const steps = (titles: string[]) => ({ steps: titles.map((title) => ({ title, done: false })) });
  assert.deepEqual(jsonDiff(steps(["a", "b", "c"]), steps(["a", "x", "b", "c"])), [
    { kind: "added", path: "steps[1]", after: { title: "x", done: false } },
  ]);
  const before = steps(["a", "b", "c"]);
  const after = steps(["a", "b", "c"]);
  after.steps[1].done = true;
  after.steps.pop();
  assert.deepEqual(jsonDiff(before, after), [
    { kind: "changed", path: "steps[1].done", before: false, after: true },
    { kind: "removed", path: "steps[2]", before: { title: "c", done: false } },
  ]);
});

Deno.test("studio diff: text inside JSON with line breaks is diffed by line; two texts diff as text", () => {
  const [change] = jsonDiff({ spec: "# A\nold line\n" }, { spec: "# A\nnew line\n" });
  assert.equal(change.kind, "changed");
  assert.equal(change.path, "spec");
  assert.deepEqual(change.kind === "changed" && change.lines, [
    { kind: "same", text: "# A" },
    { kind: "del", text: "old line" },
    { kind: "add", text: "new line" },
  ]);
  assert.equal(diffRevisions("a\nb", "a\nc").kind, "text");
  assert.equal(diffRevisions({ a: 1 }, "text").kind, "json");
  assert.deepEqual(diffRevisions({ a: 1 }, { a: 1 }), { kind: "json", changes: [] });
});

Deno.test("a unified diff of the service reads as the page's line diff: headers left out, hunks kept", () => {
  const diff =
    unifiedDiff("docs/notes.md", "# Notes\n\nKept\nA person's line\n", "# Notes\n\nKept\nNew\n", 4096).diff;
  assert.deepEqual(unifiedDiffLines(diff), [
    { kind: "same", text: "@@ -1,4 +1,4 @@" },
    { kind: "same", text: "# Notes" },
    { kind: "same", text: "" },
    { kind: "same", text: "Kept" },
    { kind: "del", text: "A person's line" },
    { kind: "add", text: "New" },
  ]);
  assert.deepEqual(unifiedDiffLines(""), []);
});
