/**
 * Schema patterns are matched in linear time: the engine Ajv uses for `pattern` and `patternProperties`
 * keeps JSON Schema's meaning (a match anywhere) and refuses what only backtracking can do.
 */

import assert from "node:assert/strict";
import { compileSchema } from "../../src/engine/json_schema.ts";
import { LinearPattern } from "../../src/engine/linear_regexp.ts";

Deno.test("linear patterns: JavaScript syntax is matched like a JSON Schema pattern, anywhere in the text", () => {
  const table: [string, string, boolean][] = [
    ["^(\\w+\\s?)*$", "ship the weekly report", true],
    ["^(\\w+\\s?)*$", "the weekly report!", false],
    ["^[a-z]+(-[a-z]+)*$", "release-notes", true],
    ["\\d{3}", "room 404", true],
    ["^\\d{3}$", "room 404", false],
    ["^(?<year>\\d{4})-\\d{2}$", "2024-05", true],
    ["^\\u00e9t\\u00e9$", "été", true],
    ["^\\p{L}+$", "Ärger", true],
    ["^a|b$", "xb", true],
  ];
  for (const [pattern, text, matches] of table) {
    assert.equal(new LinearPattern(pattern).test(text), matches, `${pattern} on ${JSON.stringify(text)}`);
  }
});

Deno.test("linear patterns: backreferences and lookarounds are refused with the pattern named", () => {
  for (const pattern of ["^(a)\\1$", "^(?=a)\\w+$", "^(?!a)\\w+$", "(?<=a)b", "(?<!a)b"]) {
    assert.throws(
      () => new LinearPattern(pattern),
      (error: Error) => error.message.startsWith(`pattern ${JSON.stringify(pattern)} is not supported`),
      pattern,
    );
  }
});

Deno.test("linear patterns: Ajv uses them for pattern and patternProperties, each schema its own", () => {
  const validate = compileSchema({
    type: "object",
    properties: { slug: { pattern: "^[a-z]+$" }, code: { pattern: "^[0-9]+$" } },
    patternProperties: { "^x-": { type: "string" } },
  });
  assert.deepEqual(validate({ slug: "abc", code: "123", "x-note": "ok" }), { ok: true });
  const verdict = validate({ slug: "123", code: "abc", "x-note": 1 });
  assert.equal(verdict.ok, false);
  assert.equal(!verdict.ok && verdict.errors.length, 3);
  assert.throws(() => compileSchema({ pattern: "(a)\\1" }), /pattern "\(a\)\\\\1" is not supported/);
  assert.throws(() => compileSchema({ patternProperties: { "(?=x)": {} } }), /pattern "\(\?=x\)"/);
});
