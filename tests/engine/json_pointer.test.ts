/** RFC 6901 JSON pointers, as workflows use them to address stage state. */

import assert from "node:assert/strict";
import { escapeToken, getAt, pointerTokens, setAt } from "../../src/engine/json_pointer.ts";

Deno.test("json pointer: ~0 and ~1 the only escapes, and escaping a token undoes reading it", () => {
  assert.equal(escapeToken("a/b~c"), "a~1b~0c");
  assert.equal(escapeToken("~1"), "~01", "~ is escaped before /, so ~1 stays two characters");
  for (const token of ["", "plain", "a/b", "m~n", "~1", "/~/"]) {
    assert.deepEqual(pointerTokens("/" + escapeToken(token)), [token]);
  }
  assert.deepEqual(pointerTokens(""), []);
  assert.deepEqual(pointerTokens("/"), [""]);
  // ~01 is "~1" unescaped once, never "/": ~1 is replaced before ~0.
  assert.deepEqual(pointerTokens("/a~1b/m~0n/~01"), ["a/b", "m~n", "~1"]);
});

Deno.test("json pointer: getAt reads own members only, undefined where nothing is", () => {
  const document = { answers: [{ answer: "x" }], "a/b": 1, "m~n": 2, "": 3 };
  assert.equal(getAt(document, ""), document);
  assert.equal(getAt(document, "/answers/0/answer"), "x");
  assert.equal(getAt(document, "/a~1b"), 1);
  assert.equal(getAt(document, "/m~0n"), 2);
  assert.equal(getAt(document, "/"), 3);
  assert.equal(getAt(document, "/answers/1/answer"), undefined);
  assert.equal(getAt(document, "/answers/0/answer/length"), undefined, "not into a string");
  assert.equal(getAt(document, "/toString"), undefined, "not into the prototype");
  assert.equal(getAt(null, "/a"), undefined);
});

Deno.test("json pointer: setAt returns a copy with the value placed, creating parents, never mutating", () => {
  const original = { stage: { list: [1] }, keep: { deep: true } };
  const snapshot = structuredClone(original);
  const written = setAt(original, "/stage/draft/title", "T") as Record<string, Record<string, unknown>>;
  assert.deepEqual(written.stage.draft, { title: "T" });
  assert.deepEqual(original, snapshot, "the original is untouched");
  assert.deepEqual(setAt(original, "/stage/list/-", 2), { ...snapshot, stage: { list: [1, 2] } });
  assert.deepEqual(setAt(original, "/stage/list/0", 9), { ...snapshot, stage: { list: [9] } });
  assert.deepEqual(setAt(original, "", { whole: 1 }), { whole: 1 });
  assert.deepEqual(setAt(undefined, "/a", 1), { a: 1 });
  const value = { nested: [1] };
  const placed = setAt({}, "/v", value) as { v: unknown };
  value.nested.push(2);
  assert.deepEqual(placed.v, { nested: [1] }, "the value is copied in, not shared");
});
