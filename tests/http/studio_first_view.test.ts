/**
 * The first view embedded in the page a ticket opens, in process against the service's handler: the answer
 * to the home view's first `list_runs`, as inert JSON that no Run's text can break out of (a `</script>` in an
 * intent stays data), only in the page a valid ticket opens, and a page that still opens when the answer
 * cannot be had.
 */

import assert from "node:assert/strict";
import { createHandler } from "../../src/http/handler.ts";
import { DEFAULT_SESSION_LIMITS, SessionTable } from "../../src/http/sessions.ts";
import { StudioAccess } from "../../src/http/studio_access.ts";
import { FIRST_VIEW_CALLS, FIRST_VIEW_ELEMENT_ID, type FirstAnswer } from "../../src/studio/first_view.ts";
import { Server } from "../../src/mcp/sdk.ts";
import { Logger } from "../../src/lib/logger.ts";

const PORT = 41_002;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const INTERNAL = "i".repeat(43);
const HOSTILE = "</script><script>alert(1)</script><!-- \u2028 & </SCRIPT >";

const TABLE_BREAKER = "</table><script>alert(1)</script><img src=x onerror=alert(1)>";

/** A waiting Run as `list_runs` gives it, waiting for the person. */
function runOf(runId: string, intent: string) {
  return {
    runId,
    intent,
    flowName: "notes",
    status: "waiting",
    updatedAt: "2026-12-02T06:45:37.123Z",
    cursor: { stageName: "draft", stepName: "ask" },
    execution: { source: "studio", agentExecutor: "service" },
    pendingAction: { id: "act_1", kind: "ask" },
  };
}

/** The page's root element as sent, up to the body's end. */
function root(page: string): string {
  const start = page.indexOf('<div id="studio">');
  assert.ok(start >= 0, "the page has its root");
  return page.slice(start, page.indexOf("</body>"));
}

type ListRuns = (query: { status: "waiting"; limit: number }) => Promise<unknown>;

async function withHandler(
  listRuns: ListRuns,
  fn: (handle: (r: Request) => Promise<Response>) => Promise<void>,
) {
  const sessions = new SessionTable(
    DEFAULT_SESSION_LIMITS,
    () => ({ server: new Server({ name: "t", version: "0" }, { capabilities: { tools: {} } }) }),
    Logger.silent(),
  );
  const handle = createHandler({
    tokens: { external: "e".repeat(43), internal: INTERNAL },
    port: () => PORT,
    sessions,
    studio: new StudioAccess(INTERNAL),
    listRuns,
  });
  try {
    await fn(handle);
  } finally {
    await sessions.closeAll();
  }
}

function request(path: string, init: { method?: string; headers?: Record<string, string> } = {}): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: init.method ?? "GET",
    headers: { host: `127.0.0.1:${PORT}`, ...init.headers },
  });
}

/** Mints a ticket and exchanges it as the browser does; the page's status and text. */
async function open(handle: (r: Request) => Promise<Response>, ticket?: string) {
  if (!ticket) {
    const minted = await handle(
      request("/studio/ticket", { method: "POST", headers: { authorization: `Bearer ${INTERNAL}` } }),
    );
    ticket = (await minted.json()).ticket as string;
  }
  const response = await handle(request(`/studio/?ticket=${ticket}`));
  return { status: response.status, text: await response.text(), ticket };
}

/** The data element's text as an HTML parser cuts it: up to the first `</script` in any case. */
function embedded(page: string): string | undefined {
  const open = `<script type="application/json" id="${FIRST_VIEW_ELEMENT_ID}">`;
  const start = page.indexOf(open);
  if (start < 0) return undefined;
  const body = page.slice(start + open.length);
  return body.slice(0, body.search(/<\/script/i));
}

Deno.test("studio first view: the opened page carries the home view's first list_runs answer as inert JSON", async () => {
  const asked: unknown[] = [];
  const run = runOf("run_1", HOSTILE);
  await withHandler((query) => {
    asked.push(query);
    return Promise.resolve({ runs: [run], nextCursor: "c1" });
  }, async (handle) => {
    const { status, text, ticket } = await open(handle);
    assert.equal(status, 200);
    assert.deepEqual(asked, [FIRST_VIEW_CALLS[0].arguments], "the page's own first call, asked once");
    const json = embedded(text) ?? assert.fail("the opened page holds no first view");
    // Cut where a browser cuts the element, it is still the whole answer, and the Run's text comes back exact.
    const answers = JSON.parse(json) as FirstAnswer[];
    assert.deepEqual(answers, [{ ...FIRST_VIEW_CALLS[0], result: { runs: [run], nextCursor: "c1" } }]);
    assert.doesNotMatch(json, /[<>&\u2028]/, "no character that could start markup or end the element");
    assert.equal(text.match(/<script/gi)?.length, 2, "the module script and the data element, nothing more");

    const used = await open(handle, ticket);
    assert.equal(used.status, 403);
    assert.equal(embedded(used.text), undefined, "a used ticket's page carries no data");
    assert.equal(asked.length, 1, "nor reads any");
  });
});

Deno.test("studio first view: when the Runs cannot be read, the page opens without them", async () => {
  await withHandler(() => Promise.reject(new Error("store busy")), async (handle) => {
    const { status, text } = await open(handle);
    assert.equal(status, 200);
    assert.equal(embedded(text), undefined);
    assert.match(
      text,
      /<meta name="weft-studio-key" content="[A-Za-z0-9_-]{43}">/,
      "the tab key is still there",
    );
  });
});

Deno.test("studio first view: the opened page's root holds the home view's rows, every Run's text escaped, before any script", async () => {
  const runs = [runOf("run_1", TABLE_BREAKER), runOf("run_<2>", "Plain & simple")];
  await withHandler(() => Promise.resolve({ runs, nextCursor: "c1" }), async (handle) => {
    const { status, text } = await open(handle);
    assert.equal(status, 200);
    const markup = root(text);
    assert.ok(text.indexOf(markup) > text.indexOf("</head>"), "in the body");
    assert.match(markup, /<table aria-label="Runs" aria-busy="false">/);
    assert.equal(markup.match(/<tr>/g)?.length, 3, "the heading row and one row per Run");
    assert.ok(
      markup.includes(
        '<a href="#/runs/run_1">&lt;/table&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;</a>',
      ),
      "the intent as text",
    );
    assert.ok(
      markup.includes('<a href="#/runs/run_%3C2%3E">Plain &amp; simple</a>'),
      "the id as the hash route",
    );
    assert.match(markup, /Waiting for you \(2\+\)/, "both wait for the person, and more Runs wait");
    assert.doesNotMatch(markup, /<(script|img)\b/i, "no element from a Run's text");
    assert.doesNotMatch(
      markup,
      /<button type="button" disabled>Older/,
      "Older is open: there is a next page",
    );
    assert.equal(text.match(/<script/gi)?.length, 2, "the module script and the data element, nothing more");
    assert.match(text, /<title>Runs · weft Studio<\/title>/);
  });
});

Deno.test("studio first view: a Run's text that reads as a replacement pattern ($&, $`, $') is copied as it is", async () => {
  const intent = "a $& b $` c $' d $$ e";
  await withHandler(() => Promise.resolve({ runs: [runOf("run_1", intent)] }), async (handle) => {
    const { text } = await open(handle);
    assert.ok(root(text).includes(">a $&amp; b $` c $&#39; d $$ e</a>"), "escaped, and nothing else");
    const answers = JSON.parse(embedded(text)!) as FirstAnswer[];
    assert.equal((answers[0].result as { runs: { intent: string }[] }).runs[0].intent, intent);
    assert.equal(text.match(/<head>/g)?.length, 1, "the page was not copied into itself");
  });
});

Deno.test("studio first view: an answer the HTML cannot be drawn from still travels as data", async () => {
  await withHandler(() => Promise.resolve({ runs: [{ runId: "run_1" }] }), async (handle) => {
    const { status, text } = await open(handle);
    assert.equal(status, 200);
    assert.ok(embedded(text), "the data element is there");
    assert.equal(root(text).trim(), '<div id="studio"></div>', "the root is left for the script");
  });
});
