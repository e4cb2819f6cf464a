/**
 * Publish templates render as Mustache does for committed data, with bounded work: a template that would
 * expand without end stops at the bound of its steps or of its output, with a classified error naming it.
 */

import assert from "node:assert/strict";
import Mustache from "mustache";
import { WeftError } from "../../src/errors.ts";
import { renderTemplate } from "../../src/engine/template_render.ts";

/** What `render` throws; fails the test when it returns. */
function thrown(render: () => unknown): unknown {
  try {
    render();
  } catch (error) {
    return error;
  }
  assert.fail("the render did not stop");
}

const WIDE = { steps: 1_000_000, chars: 1_000_000 };

const DATA = {
  title: "Release",
  count: 3,
  zero: 0,
  empty: [],
  none: null,
  yes: true,
  no: false,
  text: "a *b* <c>",
  author: { name: "Ada", team: { name: "core" } },
  tasks: [
    { title: "one", done: true, tags: ["x", "y"] },
    { title: "two", done: false, tags: [] },
    { title: "three", owner: { name: "Lin" } },
  ],
  matrix: [[1, 2], [3]],
};

Deno.test("template render: the same text as Mustache for committed data", () => {
  const templates = [
    "# {{title}} ({{count}})\n{{text}} {{{text}}} {{&text}}",
    "{{#tasks}}- {{title}}{{#done}} (done){{/done}}{{^done}} (open){{/done}} by {{author.name}}\n{{/tasks}}",
    "{{#tasks}}{{#tags}}[{{.}}]{{/tags}}{{^tags}}no tags{{/tags}};{{/tasks}}",
    "{{#tasks}}{{owner.name}}|{{title.length}}|{{/tasks}}{{tasks.length}} {{author.team.name}}",
    "{{#author}}{{name}} in {{#team}}{{name}} of {{title}}{{/team}}{{/author}}",
    "{{#zero}}z{{/zero}}{{^zero}}not z{{/zero}}{{#empty}}e{{/empty}}{{^empty}}no e{{/empty}}{{none}}{{missing}}",
    "{{#yes}}yes {{title}}{{/yes}}{{#no}}no{{/no}}{{#text}}[{{.}}]{{/text}}{{#count}}<{{.}}>{{/count}}",
    "{{#matrix}}({{#.}}{{.}},{{/.}}){{/matrix}}{{matrix}}",
    "{{! a comment }}{{=<% %>=}}<% title %> {{title}}<%={{ }}=%> {{ title }}{{> partial}}",
    "{{#tasks}}{{#owner}}{{name}}/{{title}}{{/owner}}{{/tasks}}",
  ];
  for (const template of templates) {
    const expected = Mustache.render(template, DATA, {}, { escape: (text: string) => text });
    assert.equal(renderTemplate(template, DATA, WIDE, "t"), expected, template);
  }
});

Deno.test("template render: a name finds the data's own values, never what objects inherit", () => {
  const template =
    "[{{constructor}}{{toString}}{{#hasOwnProperty}}x{{/hasOwnProperty}}{{tasks.map}}{{__proto__}}]";
  assert.equal(renderTemplate(template, DATA, WIDE, "t"), "[]");
  assert.equal(renderTemplate("{{#tasks}}{{valueOf}}{{/tasks}}", DATA, WIDE, "t"), "");
});

Deno.test("template render: sections nested over a long list stop at the bound of the steps", () => {
  const data = { a: Array.from({ length: 60 }, (_, i) => i) };
  const template = "{{#a}}".repeat(6) + "{{/a}}".repeat(6);
  const error = thrown(() => renderTemplate(template, data, { steps: 50_000, chars: 1 << 20 }, "the T"));
  assert.ok(error instanceof WeftError);
  assert.equal(error.code, "PUBLISH_FAILED");
  assert.match(error.message, /^the T takes more than 50000 steps to render \(the bound of one render\)/);
  // Two levels are 60² items and a few steps each: well within the same bound.
  assert.equal(renderTemplate("{{#a}}{{#a}}{{/a}}{{/a}}", data, { steps: 50_000, chars: 10 }, "the T"), "");
});

Deno.test("template render: output stops as it passes the bound, before it is all built", () => {
  const data = { a: Array.from({ length: 1000 }, () => "x".repeat(1000)) };
  const error = thrown(() =>
    renderTemplate("{{#a}}{{#a}}{{.}}{{/a}}{{/a}}", data, { steps: 1e9, chars: 100_000 }, "the T")
  );
  assert.ok(error instanceof WeftError);
  assert.match(error.message, /^the T renders more than 100000 bytes \(the bound of a published document\)$/);
  assert.equal(renderTemplate("{{#a}}{{.}}{{/a}}", { a: ["xy"] }, { steps: 10, chars: 2 }, "t"), "xy");
});

Deno.test("template render: looking far up a deep stack costs steps too", () => {
  const template = "{{#a}}".repeat(200) + "{{z}}".repeat(100) + "{{/a}}".repeat(200);
  const data = { a: [1], z: "q" };
  assert.equal(renderTemplate(template, data, WIDE, "t"), "q".repeat(100));
  assert.throws(
    () => renderTemplate(template, data, { steps: 10_000, chars: 1000 }, "t"),
    /more than 10000 steps/,
  );
});
