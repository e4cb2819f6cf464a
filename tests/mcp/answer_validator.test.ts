/**
 * The answer validator each session gives the SDK: it checks a person's form answer as the SDK's own default
 * would, string formats included, though it is built only when first used.
 *
 * @module
 */

import assert from "node:assert/strict";
import { answerValidator } from "../../src/mcp/answer_validator.ts";

const FORM = {
  type: "object" as const,
  properties: {
    email: { type: "string" as const, format: "email" as const },
    count: { type: "integer" as const, minimum: 1 },
  },
  required: ["email"],
};

Deno.test("answer validator: an answer that fits the form passes, one that does not is refused with the reason", () => {
  const validator = answerValidator();
  const check = validator.getValidator(FORM);
  assert.deepEqual(check({ email: "ada@example.com", count: 2 }), {
    valid: true,
    data: { email: "ada@example.com", count: 2 },
    errorMessage: undefined,
  });
  const badFormat = check({ email: "not an address" });
  assert.equal(badFormat.valid, false);
  assert.match(badFormat.errorMessage!, /format "email"/);
  const missing = validator.getValidator(FORM)({ count: 0 });
  assert.equal(missing.valid, false);
  assert.match(missing.errorMessage!, /must have required property 'email'/);
  assert.match(missing.errorMessage!, /must be >= 1/, "every problem is named, not only the first");
});
