/**
 * Opaque keyset-pagination cursors bound to the filters they were issued for, so a cursor replayed with
 * other filters is refused instead of silently paging a different list.
 *
 * @module
 */
import { invalid } from "../errors.ts";

/** Encodes the position after the last row of a page together with the filters of the list. */
export function encodeCursor(after: number, filters: Record<string, unknown>): string {
  const text = JSON.stringify({ a: after, f: filterKey(filters) });
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

/** Decodes a cursor; `INVALID_REQUEST` when it is malformed or was issued for other filters. */
export function decodeCursor(cursor: string, filters: Record<string, unknown>): number {
  let parsed: { a?: unknown; f?: unknown };
  try {
    parsed = JSON.parse(atob(cursor.replaceAll("-", "+").replaceAll("_", "/")));
  } catch {
    throw invalid("cursor is not one this service issued");
  }
  if (typeof parsed?.a !== "number" || !Number.isSafeInteger(parsed.a)) {
    throw invalid("cursor is not one this service issued");
  }
  if (parsed.f !== filterKey(filters)) {
    throw invalid("cursor was issued for other filters; start again without a cursor");
  }
  return parsed.a;
}

/** Checks a page size: 1..200, default 50. */
export function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw invalid("limit must be an integer 1..200");
  return limit;
}

function filterKey(filters: Record<string, unknown>): string {
  return JSON.stringify(Object.keys(filters).sort().map((key) => [key, filters[key] ?? null]));
}
