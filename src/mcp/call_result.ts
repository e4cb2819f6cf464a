/**
 * Tool results on the wire. Success: `structuredContent` plus the same JSON as text. Failure: `isError` with
 * `{ error: { code, message, retryable } }` as text and no `structuredContent`, because the v1 SDK client
 * validates any `structuredContent` against the output schema, even on an error.
 *
 * @module
 */

import type { CallToolResult } from "./sdk.ts";
import { errorPayload } from "../errors.ts";

/** A successful result carrying `value` both structured and as text. */
export function okResult(value: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value };
}

/** A classified error result; unknown failures become `INTERNAL` without their (possibly revealing) text. */
export function errorResult(error: unknown): CallToolResult {
  const payload = errorPayload(error);
  return { content: [{ type: "text", text: JSON.stringify({ error: payload }) }], isError: true };
}
