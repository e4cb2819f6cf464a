/**
 * The store's shared query builders (`page_cursor.ts`) write SQLite's `?` placeholders; PostgreSQL numbers
 * them (`$1`, `$2`, ...).
 *
 * @module
 */

/** `sql` with each `?` replaced by `$1`, `$2`, ... in order (the builders put no `?` inside literals). */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}
