/**
 * Opaque keyset-pagination cursors bound to the filters they were issued for, so a cursor replayed with
 * other filters is refused instead of silently paging a different list.
 *
 * @module
 */
import { invalid } from "../errors.ts";
import { PAGE_SIZE } from "../engine/paging.ts";
import { base64url, fromBase64url } from "../lib/base64url.ts";
import type { SqlValue } from "./database.ts";

/**
 * The `WHERE` clause, its parameters and the page size of one keyset page over `seq` (newest first): rows
 * below the cursor's position that equal every filter given. `columns` names the column of each filter.
 */
export function pageQuery(
  q: { cursor?: string; limit?: number },
  filters: Record<string, string | undefined>,
  columns: Record<string, string>,
): { where: string; params: SqlValue[]; limit: number } {
  const limit = pageLimit(q.limit);
  const conditions: string[] = [];
  const params: SqlValue[] = [];
  if (q.cursor !== undefined) conditions.push("seq < ?"), params.push(decodeCursor(q.cursor, filters));
  for (const [name, value] of Object.entries(filters)) {
    if (value !== undefined) conditions.push(`${columns[name]} = ?`), params.push(value);
  }
  return { where: conditions.length ? `WHERE ${conditions.join(" AND ")}` : "", params, limit };
}

/** Cuts the `limit + 1` rows a page query fetched into the page and the cursor of the next one, if any. */
export function pageOf<Row extends { seq: number | bigint }>(
  rows: Row[],
  limit: number,
  filters: Record<string, string | undefined>,
): { page: Row[]; nextCursor?: string } {
  const page = rows.slice(0, limit);
  const nextCursor = rows.length > limit
    ? encodeCursor(Number(page[page.length - 1].seq), filters)
    : undefined;
  return { page, nextCursor };
}

/** Encodes the position after the last row of a page together with the filters of the list. */
export function encodeCursor(after: number, filters: Record<string, unknown>): string {
  const text = JSON.stringify({ a: after, f: filterKey(filters) });
  return base64url(new TextEncoder().encode(text));
}

/**
 * Decodes a cursor into the position it continues after; `INVALID_REQUEST` when it is malformed or was
 * issued for other filters.
 */
export function decodeCursor(cursor: string, filters: Record<string, unknown>): number {
  let parsed: { a?: unknown; f?: unknown };
  try {
    parsed = JSON.parse(new TextDecoder().decode(fromBase64url(cursor)));
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

/** Checks a page size against {@linkcode PAGE_SIZE}; the default when none is given. */
export function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return PAGE_SIZE.default;
  if (!Number.isInteger(limit) || limit < PAGE_SIZE.min || limit > PAGE_SIZE.max) {
    throw invalid(`limit must be an integer ${PAGE_SIZE.min}..${PAGE_SIZE.max}`);
  }
  return limit;
}

function filterKey(filters: Record<string, unknown>): string {
  return JSON.stringify(Object.keys(filters).sort().map((key) => [key, filters[key] ?? null]));
}
