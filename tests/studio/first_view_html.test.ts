/**
 * The home view drawn as HTML by the service (`src/studio/first_view_html.ts`), on its own: every Run's text
 * escaped, who each Run waits for, the "Waiting for you" count and its "or more", the empty list's sentence
 * and the paging buttons. That the program's first render draws the same markup is held in a browser
 * (`first_view.test.ts`).
 */

import assert from "node:assert/strict";
import {
  escapeHtml,
  firstViewHtml,
  type RunRowFields,
  waitingForYou,
  waitsFor,
} from "../../src/studio/first_view_html.ts";

function run(fields: Partial<RunRowFields> = {}): RunRowFields {
  return {
    runId: "run_1",
    intent: "Write notes",
    flowName: "notes",
    status: "waiting",
    updatedAt: "2026-12-02T06:45:37.123Z",
    cursor: { stageName: "draft", stepName: "ask" },
    execution: { agentExecutor: "service" },
    ...fields,
  };
}

Deno.test("studio first view html: every character that could start markup or end an attribute is escaped", () => {
  assert.equal(
    escapeHtml(`<a href="x" title='y'>&amp;</a>`),
    "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;",
  );
  const html = firstViewHtml({
    runs: [run({ runId: `r"><img src=x>`, intent: "<b>bold</b>", flowName: "<i>", status: `x" onclick="y` })],
  });
  assert.doesNotMatch(html, /<(b|i|img)\b/, "no element from a Run's text");
  assert.doesNotMatch(html, /onclick="/, "no attribute either");
  assert.ok(html.includes('<a href="#/runs/r%22%3E%3Cimg%20src%3Dx%3E">&lt;b&gt;bold&lt;/b&gt;</a>'));
  assert.ok(html.includes('<span class="badge x&quot; onclick=&quot;y">'));
});

Deno.test("studio first view html: a Run's text shows its control characters, as the program's render does", () => {
  const html = firstViewHtml({ runs: [run({ intent: "Ship\x1b[2K\rFine", flowName: "n\u202eotes" })] });
  assert.ok(html.includes(">Ship\\x1b[2K\\x0dFine</a>"), html);
  assert.ok(html.includes("<td>n\\u202eotes</td>"), html);
  // deno-lint-ignore no-control-regex -- control characters are exactly what it looks for
  assert.doesNotMatch(html, /[\x00-\x08\x0b-\x1f\u202e]/);
});

Deno.test("studio first view html: who a Run waits for, and the count of those waiting for the person", () => {
  assert.equal(waitsFor(run({ pendingAction: { id: "act_1" } })), " for you");
  assert.equal(waitsFor(run({ pendingCommand: { phase: "untrusted" } })), " for you");
  assert.equal(waitsFor(run({ pendingCommand: { phase: "running" } })), " for its command");
  assert.equal(waitsFor(run({ pendingAgentCall: {} })), " for the model");
  assert.equal(
    waitsFor(run({ pendingAgentCall: {}, execution: { agentExecutor: "mcp_client" } })),
    " for the agent",
  );
  assert.equal(waitsFor(run()), "");
  const page = {
    runs: [run({ pendingAction: {} }), run({ pendingAgentCall: {} }), run({ pendingAction: {} })],
  };
  assert.equal(waitingForYou(page), "2");
  assert.equal(waitingForYou({ ...page, nextCursor: "c" }), "2+", "more waiting Runs past the page");
  assert.match(firstViewHtml({ ...page, nextCursor: "c" }), /Waiting for you \(2\+\)/);
});

Deno.test("studio first view html: an empty list says nothing waits; Older opens only with a next page", () => {
  const empty = firstViewHtml({ runs: [] });
  assert.match(empty, /<tbody><\/tbody><\/table><p class="muted">Nothing is waiting for you\.<\/p>/);
  assert.match(empty, /<button type="button" disabled>Older<\/button>/);
  const more = firstViewHtml({ runs: [run()], nextCursor: "c" });
  assert.doesNotMatch(more, /Nothing is waiting/);
  assert.match(more, /<button type="button">Older<\/button>/);
  assert.match(more, /<time datetime="2026-12-02T06:45:37.123Z">2026-12-02 06:45:37 UTC<\/time>/);
});
