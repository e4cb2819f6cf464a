/** The bundle's build step: escaping the characters beyond Latin-1 leaves the program as it was. */
import assert from "node:assert/strict";
import { latin1Escaped } from "./bundle.ts";

Deno.test("escaping beyond Latin-1 keeps strings, templates, regular expressions and identifiers alike", async () => {
  const source = [
    "// a comment — with a dash → and an arrow",
    "const ärger = 1; const naïve = 2; const 変数 = 3;",
    "export const values = {",
    "  text: 'request id → key', template: `a — ${ärger + naïve + 変数}`, emoji: '😀',",
    "  dash: /—+/.test('——'), astral: /^😀$/u.test('😀'), inClass: /[→—]/.exec('x→')?.[0],",
    "};",
  ].join("\n");
  const escaped = latin1Escaped(source);
  assert.equal(/[\u0100-\uffff]/.exec(escaped), null);
  assert.ok(escaped.includes("naïve"), "Latin-1 letters stay as they are");
  const load = async (text: string) =>
    (await import(
      `data:application/javascript;base64,${btoa(String.fromCharCode(...new TextEncoder().encode(text)))}`
    ))
      .values;
  const values = await load(escaped);
  assert.deepEqual(values, await load(source));
  assert.deepEqual(values, {
    text: "request id → key",
    template: "a — 6",
    emoji: "😀",
    dash: true,
    astral: true,
    inClass: "→",
  });
});
