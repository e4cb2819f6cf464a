/** The readable rendering as a Markdown document: sections, lists, tables, titled records, escaped text. */

import assert from "node:assert/strict";
import { escapeText, readableMarkdown } from "../../src/lib/readable_markdown.ts";

Deno.test("readable markdown: top-level fields are sections, flat records a table, others titled", () => {
  const value = {
    summary: "**Bold** as written",
    goals: ["Export *any* report", "Stream rows"],
    risks: [{ risk: "large | wide", mitigation: "stream" }, { risk: "encoding", mitigation: "UTF-8" }],
    requirements: [{ id: "R1", statement: "An Export button", acceptance: ["a test proves it"] }],
    constraints: [],
  };
  assert.equal(
    readableMarkdown(value, ["/summary"]),
    [
      "## Summary",
      "",
      "**Bold** as written",
      "",
      "## Goals",
      "",
      "- Export \\*any\\* report",
      "- Stream rows",
      "",
      "## Risks",
      "",
      "| Risk | Mitigation |",
      "| --- | --- |",
      "| large \\| wide | stream |",
      "| encoding | UTF-8 |",
      "",
      "## Requirements",
      "",
      "### R1",
      "",
      "- **Statement:** An Export button",
      "- **Acceptance:**",
      "",
      "  - a test proves it",
      "",
      "## Constraints",
      "",
      "*(none)*",
      "",
    ].join("\n"),
  );
});

Deno.test("readable markdown: plain text never turns into formatting", () => {
  assert.equal(escapeText("# not a heading"), "\\# not a heading");
  assert.equal(escapeText("- not a bullet"), "\\- not a bullet");
  assert.equal(escapeText("1. not a list"), "1\\. not a list");
  assert.equal(escapeText("<script>"), "\\<script\\>");
  assert.equal(readableMarkdown("[link](javascript:x)"), "\\[link\\](javascript:x)\n");
});

Deno.test("readable markdown: inline code stays as written, and only inside its backticks", () => {
  assert.equal(escapeText("escape such as `&` and `<b>`"), "escape such as `&` and `<b>`");
  assert.equal(escapeText("a ``code with ` inside`` here"), "a ``code with ` inside`` here");
  assert.equal(escapeText("*not* `code` <b>"), "\\*not\\* `code` \\<b\\>");
  assert.equal(escapeText("a lone ` backtick"), "a lone \\` backtick");
  assert.equal(
    readableMarkdown({ constraints: ["quote values such as `&` in CSV"] }),
    "## Constraints\n\n- quote values such as `&` in CSV\n",
  );
});
