/** The terminal formatting helpers: widths without colour codes, tables, truncation, times people say. */

import assert from "node:assert/strict";
import {
  elapsed,
  indent,
  relativeTime,
  statusTone,
  table,
  truncate,
  visibleWidth,
} from "../../src/cli/terminal/format.ts";
import { colour } from "../../src/cli/terminal/screen.ts";

Deno.test("format: visible width ignores weft's colours and counts characters, not UTF-16 units", () => {
  assert.equal(visibleWidth(colour(32, "ok")), 2);
  assert.equal(visibleWidth("🙂é"), 2);
});

Deno.test("format: a control character is as wide as the escape that shows it", () => {
  // Shown as `\x1b[2K`: a cell holding it is padded by what the terminal shows, not by its code units.
  assert.equal(visibleWidth("\x1b[2K"), 7);
});

Deno.test("format: tables align columns two spaces apart and never pad the last one", () => {
  // Not a terminal here, so no colour: the header comes out plain.
  const text = table(["RUN", "STATUS", "INTENT"], [["run_1", "waiting", "short"], ["run_22", "ok", "x"]]);
  assert.equal(text, "RUN     STATUS   INTENT\nrun_1   waiting  short\nrun_22  ok       x");
});

Deno.test("format: a table cell but the last keeps to one line, so that no text in it starts a row", () => {
  const text = table(["NAME", "TITLE"], [["a\nb  fake", "one\ntwo"]]);
  assert.equal(text, "NAME        TITLE\na\\nb  fake  one\n            two");
});

Deno.test("format: truncate flattens whitespace and cuts with an ellipsis", () => {
  assert.equal(truncate("  a\n\tb  ", 10), "a b");
  assert.equal(truncate("abcdefghij", 5), "abcd…");
  assert.equal(truncate("abcde", 5), "abcde");
});

Deno.test("format: relative times the way people say them", () => {
  const now = new Date("2025-06-01T12:00:00Z");
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000).toISOString();
  assert.equal(relativeTime(ago(-30), now), "just now");
  assert.equal(relativeTime(ago(3), now), "just now");
  assert.equal(relativeTime(ago(42), now), "42 s ago");
  assert.equal(relativeTime(ago(5 * 60), now), "5 min ago");
  assert.equal(relativeTime(ago(47 * 3600), now), "47 h ago");
  assert.equal(relativeTime(ago(3 * 86400), now), "3 days ago");
  assert.equal(relativeTime("2025-01-02T00:00:00Z", now), "2025-01-02");
  assert.equal(relativeTime("not a time", now), "not a time");
});

Deno.test("format: elapsed as m:ss or h:mm:ss, statuses by tone, indented blocks", () => {
  assert.equal(elapsed(0), "0:00");
  assert.equal(elapsed(-5), "0:00");
  assert.equal(elapsed(61_999), "1:01");
  assert.equal(elapsed(3_723_000), "1:02:03");
  assert.deepEqual(
    ["completed", "waiting", "failed", "cancelled", "running"].map(statusTone),
    ["green", "yellow", "red", "magenta", "cyan"],
  );
  assert.equal(indent("a\nb", 3), "   a\n   b");
});
