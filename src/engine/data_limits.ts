/**
 * Size bounds on what a Run keeps: its intent, its stage state (written by tools, answers and results) and
 * each agent result. Every write goes to the store, so without them one client could make each call cost
 * megabytes of database. A workflow may set its own in `limits`; these are the defaults.
 *
 * @module
 */
import { invalid } from "../errors.ts";
import type { Manifest } from "./workflow/manifest.ts";

/** The bounds, in bytes of JSON (UTF-8). */
export interface DataLimits {
  stateBytes: number;
  resultBytes: number;
}

/** 1 MiB of stage state and 1 MiB per agent result, unless the workflow says otherwise. */
export const DEFAULT_DATA_LIMITS: DataLimits = { stateBytes: 1024 * 1024, resultBytes: 1024 * 1024 };

/** The bounds a workflow runs under. */
export function dataLimits(manifest: Manifest): DataLimits {
  return { ...DEFAULT_DATA_LIMITS, ...manifest.limits };
}

/**
 * Whether `value` as JSON takes more than `limit` bytes. Only text that might be over is encoded: a UTF-16
 * unit is one to three UTF-8 bytes, so the length alone settles most cases.
 */
export function jsonLargerThan(value: unknown, limit: number): number | false {
  const json = JSON.stringify(value) ?? "";
  if (json.length * 3 <= limit) return false;
  const bytes = json.length > limit ? json.length : new TextEncoder().encode(json).length;
  return bytes > limit ? bytes : false;
}

/** The longest intent accepted, in characters. */
export const MAX_INTENT_CHARS = 20_000;

/** Refuses (`INVALID_REQUEST`) an intent that is blank or longer than {@linkcode MAX_INTENT_CHARS}. */
export function checkIntent(intent: unknown): asserts intent is string {
  if (typeof intent !== "string" || !intent.trim()) throw invalid("intent must not be blank");
  if (intent.length > MAX_INTENT_CHARS) throw invalid(`intent is longer than ${MAX_INTENT_CHARS} characters`);
}
