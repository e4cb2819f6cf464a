/**
 * Tool results on the wire, the same on both protocol revisions. Success: `structuredContent` plus the same
 * JSON as text. Failure: `isError` with `{ error: { code, message, retryable } }`, likewise as both (each
 * tool's published output schema admits it, since the v1 SDK client checks structured content against the
 * output schema even on an error: `listing.ts`).
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
  const value = { error: payload };
  return {
    content: [{ type: "text", text: JSON.stringify(value) }],
    structuredContent: value,
    isError: true,
  };
}
