/** Canonical JSON: one text per value whatever the key order, so receipts can tell "the same call". */

import assert from "node:assert/strict";
import { canonicalJson } from "../../src/lib/canonical_json.ts";

Deno.test("canonical JSON: keys sorted at every level, arrays kept in order, undefined members dropped", () => {
  assert.equal(
    canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null }, u: undefined }),
    '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
  );
  assert.equal(canonicalJson({ x: 1, y: 2 }), canonicalJson({ y: 2, x: 1 }));
  assert.notEqual(canonicalJson([1, 2]), canonicalJson([2, 1]), "array order is meaning");
  assert.notEqual(canonicalJson({ a: "1" }), canonicalJson({ a: 1 }), "types are kept");
});

Deno.test("canonical JSON: scalars and undefined have a text of their own", () => {
  assert.equal(canonicalJson(undefined), "null");
  assert.equal(canonicalJson(null), "null");
  assert.equal(canonicalJson("é\n"), '"é\\n"');
  assert.equal(canonicalJson(0), "0");
  assert.equal(canonicalJson({}), "{}");
});
