/**
 * A review's terminal lines from the request alone: a revision shows what its edit changes and says "no
 * difference" where there is none; binary and very long files are summarized; a diff's untrusted text is
 * made visible; a cut diff says so; no internal field is shown.
 */
import assert from "node:assert/strict";
import { reviewLines } from "../../src/cli/run_views/review_text.ts";
import { describeAction } from "../../src/cli/run_views/action_prompts.ts";
import { unifiedDiff } from "../../src/lib/unified_diff.ts";
import { HUGE_FILE_LINES } from "../../src/lib/diff_files.ts";

const PLAIN = { isTerminal: () => false } as unknown as typeof Deno.stdout;
const text = (request: unknown) => {
  const { head, files } = reviewLines(request, PLAIN);
  return [...head, ...files.flat()].join("\n");
};

Deno.test("review text: a revision with no difference says so, and never shows the data whole", () => {
  const before = { title: "Notes", items: Array.from({ length: 50 }, (_, i) => `item ${i}`) };
  const data = { ...before, title: "Better notes" };
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const shown = text({
    context: {
      artifactId: "art_1",
      path: "docs/notes.md",
      fromRevision: 3,
      markdownDiff: "",
      dataDiff: unifiedDiff("data.json", json(before), json(data), 1 << 20).diff,
      before,
      data,
    },
  });
  assert.match(shown, /Your edit of docs\/notes\.md, brought back into revision 3/);
  assert.match(shown, /The Markdown: no difference\./);
  assert.match(shown, /The data: \+1 −1/);
  assert.match(shown, /│ - +"title": "Notes",/);
  assert.match(shown, /│ \+ +"title": "Better notes",/);
  assert.doesNotMatch(
    shown,
    /item 25/,
    "only what changed, with its context, not the whole before and after",
  );
  const same = text({
    context: { path: "docs/notes.md", fromRevision: 3, markdownDiff: "", dataDiff: "", before, data: before },
  });
  assert.match(same, /The Markdown: no difference\.\n.*The data: no difference\./s);
});

Deno.test("review text: binary and very long files are summarized; a cut diff says so; control characters show", () => {
  const long = Array.from({ length: HUGE_FILE_LINES + 5 }, (_, i) => `row ${i}\n`).join("");
  const diff = [
    "diff --git a/logo.png b/logo.png\nindex 1..2 100644\nBinary files a/logo.png and b/logo.png differ\n",
    unifiedDiff("data.csv", null, long, 1 << 20).diff,
    unifiedDiff("src/x.ts", "a\n", "a\n\x1b[2Kb\n", 1 << 20).diff,
  ].join("");
  const shown = text({
    evidence: {
      changes: {
        files: [
          { path: "data.csv", status: "added" },
          { path: "logo.png", status: "modified" },
          { path: "src/x.ts", status: "modified" },
          { path: "src/y.ts", status: "added" },
        ],
        diff,
        cutBytes: 2048,
      },
    },
  });
  assert.match(shown, /modified\s+logo\.png\s+binary/);
  assert.match(shown, /a binary file: not shown/);
  assert.match(shown, new RegExp(`${HUGE_FILE_LINES + 5} changed lines: too long to show here`));
  assert.doesNotMatch(shown, /row 200/);
  assert.match(shown, /\+ \\x1b\[2Kb/, "an escape in a diff line is shown, not acted on");
  assert.ok(!shown.includes("\x1b"), "no escape character reaches the terminal");
  assert.match(shown, /the diff is cut here: 2 KiB more, 1 file\(s\) not shown/);
  assert.doesNotMatch(shown, /cutBytes|Cut bytes/);
});

Deno.test("review text: any confirmation of a changes step's result reads as a review of the changes, not its fields", () => {
  const diff = unifiedDiff("src/a.ts", "old\n", "new\n", 1 << 20).diff;
  const shown = describeAction({
    id: "act_1",
    kind: "user_ask_confirmation",
    request: { context: { files: [{ path: "src/a.ts", status: "modified" }], diff, cutBytes: 0 } },
    createdAt: "",
  }, PLAIN);
  assert.match(shown, /Files changed \(1\):\n\s+modified\s+src\/a\.ts\s+\+1 −1/);
  assert.match(shown, /1 {3}│ - old\n\s+1 │ \+ new/);
  assert.doesNotMatch(shown, /Cut bytes|cutBytes|Diff:/);
});
