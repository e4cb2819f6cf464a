/** Server-sent events as `weft mcp` reads them from the service, however the bytes are split. */
import assert from "node:assert/strict";
import { type ServerSentEvent, serverSentEvents } from "../../src/client/sse.ts";

async function parse(chunks: string[]): Promise<ServerSentEvent[]> {
  const body = ReadableStream.from(chunks.map((chunk) => new TextEncoder().encode(chunk)));
  const events: ServerSentEvent[] = [];
  for await (const event of serverSentEvents(body)) events.push(event);
  return events;
}

Deno.test("events: data lines joined, ids and retry kept, comments skipped, an id alone is an event", async () => {
  const text =
    ': keep-alive\n\nid: 1.s\nretry: 500\ndata: \n\nevent: message\nid: 2.s\ndata: {"a":\ndata: 1}\n\n' +
    "data:no space\n\n";
  const expected = [
    { event: "message", data: "", id: "1.s", retry: 500 },
    { event: "message", data: '{"a":\n1}', id: "2.s", retry: undefined },
    { event: "message", data: "no space", id: undefined, retry: undefined },
  ];
  assert.deepEqual(await parse([text]), expected);
  // Byte by byte, and with CRLF line breaks split between chunks, the events are the same.
  assert.deepEqual(await parse([...text]), expected);
  const crlf = text.replaceAll("\n", "\r\n");
  assert.deepEqual(await parse([...crlf]), expected);
  assert.deepEqual(await parse([crlf.replaceAll("\r\n", "\r")]), expected);
});

Deno.test("events: an event cut off by the end of the stream is not delivered", async () => {
  assert.deepEqual(await parse(['id: 1.s\ndata: {}\n\nid: 2.s\ndata: {"half"']), [
    { event: "message", data: "{}", id: "1.s", retry: undefined },
  ]);
});

Deno.test("events: a large event in many small chunks is read in time linear in its size", async () => {
  // 16 MB in 4 KiB chunks: rescanning all that is buffered on every chunk took ~15 s; once over, ~0.1 s.
  const size = 16_000_000;
  const text = `event: message\nid: 1.s\ndata: ${"x".repeat(size)}\n\n`;
  const chunks = [];
  for (let at = 0; at < text.length; at += 4096) chunks.push(text.slice(at, at + 4096));
  const started = performance.now();
  const events = await parse(chunks);
  const ms = performance.now() - started;
  assert.equal(events.length, 1);
  assert.equal(events[0].data.length, size);
  assert.ok(ms < 2_000, `took ${Math.round(ms)} ms`);
});
