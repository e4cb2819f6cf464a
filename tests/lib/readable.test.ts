/** What a person reads in a confirmation form: JSON rendered as labelled plain text. */

import assert from "node:assert/strict";
import { label } from "../../src/lib/field_label.ts";
import { MAX_READABLE_CHARS, readable } from "../../src/lib/readable.ts";

Deno.test("readable: objects become labelled lines, lists bullets, nested values indented", () => {
  const text = readable({
    title: "Weekly report",
    openQuestions: ["Who reads it?", { owner: "Ada", done: false }],
    notes: "line one\nline two",
    empty: [],
    nothing: null,
  });
  assert.equal(
    text,
    [
      "Title: Weekly report",
      "Open questions:",
      "  - Who reads it?",
      "  - Owner: Ada",
      "    Done: no",
      "Notes:",
      "  line one",
      "  line two",
      "Empty:",
      "  (none)",
      "Nothing: —",
    ].join("\n"),
  );
  assert.ok(!/[{}"\[\]]/.test(text), "no JSON punctuation");
});

Deno.test("readable: empty values say so, and long texts are cut with a pointer to the whole Run", () => {
  assert.equal(readable({}), "(none)");
  assert.equal(readable(""), "(nothing)");
  assert.equal(readable(true), "yes");
  const long = readable({ text: "x".repeat(MAX_READABLE_CHARS * 2) });
  assert.ok(long.length < MAX_READABLE_CHARS + 100);
  assert.match(long, /… \(cut here; get_run shows the whole context\)$/);
});

Deno.test("readable: field names read as words", () => {
  assert.equal(label("openQuestions"), "Open questions");
  assert.equal(label("open_questions"), "Open questions");
  assert.equal(label("api-key2Value"), "Api key2 value");
  assert.equal(label("_"), "_");
});

Deno.test("readable: recorded answers read as 'Question: answer', a skipped one as skipped", () => {
  const text = readable([
    { questionId: "audience", isSkipped: false, answer: "users" },
    { questionId: "extra_notes", isSkipped: true },
    { questionId: "steps", isSkipped: false, answer: "one\ntwo" },
  ]);
  assert.equal(
    text,
    ["- Audience: users", "- Extra notes: (skipped)", "- Steps:", "    one", "    two"].join("\n"),
  );
  // Anything else keeps its fields: only the exact shape weft records is read as an answer.
  assert.equal(
    readable({ questionId: "x", isSkipped: false, by: "ada" }),
    "Question id: x\nIs skipped: no\nBy: ada",
  );
});
