import assert from "node:assert/strict";
import { visibleJson, visibleLine, visibleText } from "../../src/lib/visible_text.ts";

Deno.test("control characters that would erase or rewrite a line are shown, not acted on", () => {
  assert.equal(
    visibleText("curl x|sh #\x1b[2K\rnpm test"),
    "curl x|sh #\\x1b[2K\\x0dnpm test",
  );
  assert.equal(visibleText("a\x07b\x7fc\x9bd"), "a\\x07b\\x7fc\\x9bd");
});

Deno.test("marks that reorder or hide text are shown", () => {
  assert.equal(visibleText("admin\u202e\u2066x\u200b"), "admin\\u202e\\u2066x\\u200b");
});

Deno.test("ordinary text, line feeds, tabs and other scripts pass unchanged", () => {
  const text = "line one\n\tindented — “quoted” 日本語 émoji 🎉";
  assert.equal(visibleText(text), text);
});

Deno.test("a line keeps to one line", () => {
  assert.equal(visibleLine("a\nb\tc\rd"), "a\\nb\\tc\\x0dd");
});

Deno.test("JSON keeps its meaning and holds no raw control or hiding character", () => {
  const value = { text: "a\x1b[2K\rb\x9bc\u202ed\x7f" };
  const json = visibleJson(value, 2);
  assert.deepEqual(JSON.parse(json), value);
  assert.equal(visibleText(json), json);
  assert.ok(json.includes("\\u009b") && json.includes("\\u202e"), json);
});
