/** The constant-time comparison of presented secrets: equal only when every unit and the length agree. */

import assert from "node:assert/strict";
import { constantTimeEqual, newToken } from "../../src/lib/tokens.ts";

Deno.test("constantTimeEqual: true only for the same string, whatever differs and wherever", () => {
  const token = newToken();
  assert.equal(constantTimeEqual(token, token), true);
  assert.equal(constantTimeEqual(`${token}`.slice(0), token), true, "an equal copy");
  assert.equal(
    constantTimeEqual(token.slice(0, -1) + (token.endsWith("A") ? "B" : "A"), token),
    false,
    "last unit",
  );
  assert.equal(
    constantTimeEqual((token[0] === "A" ? "B" : "A") + token.slice(1), token),
    false,
    "first unit",
  );
  assert.equal(constantTimeEqual(token.slice(0, -1), token), false, "a prefix");
  assert.equal(constantTimeEqual(`${token}x`, token), false, "longer");
  assert.equal(constantTimeEqual("", token), false, "empty");
  assert.equal(
    constantTimeEqual("\u0000".repeat(token.length), token),
    false,
    "NUL units of the same length",
  );
  assert.equal(constantTimeEqual("é", "é"), true);
  assert.equal(constantTimeEqual("é", "e"), false);
  assert.equal(constantTimeEqual("", ""), true);
});
