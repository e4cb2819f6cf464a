/**
 * The Markdown parser and its plain-text rendering, on their own: a table of the subset people write, what
 * each becomes, and which link targets may be followed.
 */

import assert from "node:assert/strict";
import { type Block, isSafeHref, parseMarkdown } from "../../src/lib/markdown.ts";
import { markdownToText } from "../../src/lib/markdown_text.ts";

const text = (value: string) => ({ type: "text" as const, text: value });
const paragraph = (...children: unknown[]) => ({ type: "paragraph", children });

const CASES: [string, string, unknown[]][] = [
  ["plain text", "Just words", [paragraph(text("Just words"))]],
  ["lines of one paragraph", "one\ntwo", [paragraph(text("one\ntwo"))]],
  ["two paragraphs", "one\n\ntwo", [paragraph(text("one")), paragraph(text("two"))]],
  ["headings", "# One\n### Three ##", [
    { type: "heading", level: 1, children: [text("One")] },
    { type: "heading", level: 3, children: [text("Three")] },
  ]],
  ["strong and emphasis", "**CSV export** and *fast* and __b__ _i_", [paragraph(
    { type: "strong", children: [text("CSV export")] },
    text(" and "),
    { type: "emphasis", children: [text("fast")] },
    text(" and "),
    { type: "strong", children: [text("b")] },
    text(" "),
    { type: "emphasis", children: [text("i")] },
  )]],
  ["emphasis inside strong", "**a *b* c**", [paragraph({
    type: "strong",
    children: [text("a "), { type: "emphasis", children: [text("b")] }, text(" c")],
  })]],
  ["marks that open nothing stay text", "2 * 3 * 4, snake_case_name, **open", [
    paragraph(text("2 * 3 * 4, snake_case_name, **open")),
  ]],
  ["escapes", "\\*not\\* emphasis", [paragraph(text("*not* emphasis"))]],
  ["inline code keeps its marks", "run `weft **flow**`", [
    paragraph(text("run "), { type: "code", text: "weft **flow**" }),
  ]],
  ["fenced code", "```ts\nconst a = 1;\n\n# not a heading\n```", [
    { type: "code", text: "const a = 1;\n\n# not a heading", lang: "ts" },
  ]],
  ["links, with parentheses in the target", "[docs](https://example.com/a_(b)) [x](javascript:alert(1))", [
    paragraph(
      { type: "link", href: "https://example.com/a_(b)", children: [text("docs")] },
      text(" "),
      { type: "link", href: "javascript:alert(1)", children: [text("x")] },
    ),
  ]],
  ["bullet list with a nested list", "- one\n- two\n  - inner\n- three", [{
    type: "list",
    ordered: false,
    start: 1,
    items: [
      [paragraph(text("one"))],
      [paragraph(text("two")), {
        type: "list",
        ordered: false,
        start: 1,
        items: [[paragraph(text("inner"))]],
      }],
      [paragraph(text("three"))],
    ],
  }]],
  ["numbered list from 3, loose", "3. three\n\n4. four", [{
    type: "list",
    ordered: true,
    start: 3,
    items: [[paragraph(text("three"))], [paragraph(text("four"))]],
  }]],
  ["a paragraph then a list", "Steps:\n* **a**\n* b", [
    paragraph(text("Steps:")),
    {
      type: "list",
      ordered: false,
      start: 1,
      items: [[paragraph({ type: "strong", children: [text("a")] })], [paragraph(text("b"))]],
    },
  ]],
  ["block quote", "> quoted\n> **more**", [{
    type: "quote",
    children: [paragraph(text("quoted\n"), { type: "strong", children: [text("more")] })],
  }]],
  ["raw HTML stays text", "<script>alert(1)</script>", [paragraph(text("<script>alert(1)</script>"))]],
];

for (const [name, source, expected] of CASES) {
  Deno.test(`markdown: ${name}`, () => {
    assert.deepEqual(parseMarkdown(source), expected as Block[]);
  });
}

Deno.test("markdown: only http(s) and relative targets may be followed", () => {
  for (const href of ["https://example.com", "http://x.test/a?b#c", "docs/workflows.md", "#part", "?q=1"]) {
    assert.ok(isSafeHref(href), href);
  }
  for (const href of ["javascript:alert(1)", " JavaScript:alert(1)", "java\tscript:x", "data:text/html,x"]) {
    assert.ok(!isSafeHref(href), href);
  }
  for (const href of ["file:///etc/passwd", "//evil.example/x", "vbscript:x", "\\\\host\\share"]) {
    assert.ok(!isSafeHref(href), href);
  }
});

Deno.test("markdown as text: no emphasis marks, underlined headings, bullets, numbers, links with their target", () => {
  const source =
    "# Plan\n\nAdds **CSV export**, see [docs](https://x.test).\n\n- one\n  - inner\n2. two\n\n> note";
  assert.equal(
    markdownToText(source),
    [
      "Plan",
      "====",
      "",
      "Adds CSV export, see docs (https://x.test).",
      "",
      "• one",
      "  • inner",
      "",
      "2. two",
      "",
      "│ note",
    ].join("\n"),
  );
});
