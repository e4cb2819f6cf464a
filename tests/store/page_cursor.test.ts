/** Keyset-page cursors: opaque, bound to the filters they were issued for, refused when forged or replayed. */

import assert from "node:assert/strict";
import { pageOf, pageQuery } from "../../src/store/page_cursor.ts";
import { WeftError } from "../../src/errors.ts";

const COLUMNS = { flowName: "flow_name", status: "status" };
const rows = (...seqs: number[]) => seqs.map((seq) => ({ seq }));

function refused(pattern: RegExp) {
  return (error: unknown) =>
    error instanceof WeftError && error.code === "INVALID_REQUEST" && pattern.test(error.message);
}

Deno.test("page cursor: a first page has no cursor condition, only the filters given, and the default size", () => {
  assert.deepEqual(pageQuery({}, { flowName: "notes", status: undefined }, COLUMNS), {
    where: "WHERE flow_name = ?",
    params: ["notes"],
    limit: 50,
  });
  assert.deepEqual(pageQuery({ limit: 3 }, {}, COLUMNS), { where: "", params: [], limit: 3 });
});

Deno.test("page cursor: a page of limit + 1 rows yields a cursor that resumes below its last row", () => {
  const filters = { flowName: "notes", status: undefined };
  const first = pageOf(rows(9, 8, 7, 6), 3, filters);
  assert.deepEqual(first.page, rows(9, 8, 7));
  assert.match(first.nextCursor!, /^[A-Za-z0-9_-]+$/, "URL-safe, no padding");
  assert.deepEqual(pageQuery({ cursor: first.nextCursor, limit: 3 }, filters, COLUMNS), {
    where: "WHERE seq < ? AND flow_name = ?",
    params: [7, "notes"],
    limit: 3,
  });
  assert.equal(pageOf(rows(5, 4), 3, filters).nextCursor, undefined, "the last page has no cursor");
  assert.equal(
    pageOf([{ seq: 10n }, { seq: 9n }], 1, {}).nextCursor !== undefined,
    true,
    "bigint seqs page too",
  );
});

Deno.test("page cursor: a cursor replayed with other filters, or forged, is INVALID_REQUEST", () => {
  const { nextCursor } = pageOf(rows(3, 2), 1, { flowName: "notes", status: undefined });
  assert.throws(
    () => pageQuery({ cursor: nextCursor }, { flowName: "other", status: undefined }, COLUMNS),
    refused(/other filters/),
  );
  assert.throws(
    () => pageQuery({ cursor: nextCursor }, { flowName: "notes", status: "waiting" }, COLUMNS),
    refused(/other filters/),
  );
  const forged = btoa(JSON.stringify({ a: "1; DROP TABLE runs", f: "[]" }));
  for (const cursor of ["garbage", "", "e30", forged]) {
    assert.throws(() => pageQuery({ cursor }, {}, COLUMNS), refused(/not one this service issued/), cursor);
  }
});

Deno.test("page cursor: page sizes are whole numbers 1..200", () => {
  for (const limit of [0, 201, 1.5, -1, NaN]) {
    assert.throws(() => pageQuery({ limit }, {}, COLUMNS), refused(/limit/), String(limit));
  }
  assert.equal(pageQuery({ limit: 200 }, {}, COLUMNS).limit, 200);
  assert.equal(pageQuery({ limit: 1 }, {}, COLUMNS).limit, 1);
});
