/** Lines read from a byte stream as they arrive (`weft mcp`'s stdin, prompts, `weft start`'s ready line). */
import assert from "node:assert/strict";
import { LineReader } from "../../src/lib/line_reader.ts";

async function lines(chunks: string[]): Promise<(string | null)[]> {
  const reader = new LineReader(ReadableStream.from(chunks.map((chunk) => new TextEncoder().encode(chunk))));
  const read: (string | null)[] = [];
  while (read.at(-1) !== null) read.push(await reader.next());
  return read;
}

Deno.test("lines: however the bytes are split, CRLF or LF, and the unterminated rest at the end", async () => {
  const text = "one\r\ntwo\n\nthree\r\nrest";
  const expected = ["one", "two", "", "three", "rest", null];
  assert.deepEqual(await lines([text]), expected);
  assert.deepEqual(await lines([...text]), expected);
  assert.deepEqual(await lines(["one\r", "\ntwo\n\nth", "ree\r\nrest"]), expected);
  assert.deepEqual(await lines([]), [null]);
});

Deno.test("lines: a long line in many small chunks is read in time linear in its length", async () => {
  // 16 MB in 4 KiB chunks: rescanning all that is buffered on every chunk took ~13 s; once over, ~0.05 s.
  const size = 16_000_000;
  const text = "x".repeat(size) + "\nnext\n";
  const chunks = [];
  for (let at = 0; at < text.length; at += 4096) chunks.push(text.slice(at, at + 4096));
  const started = performance.now();
  const read = await lines(chunks);
  const ms = performance.now() - started;
  assert.equal(read[0]?.length, size);
  assert.deepEqual(read.slice(1), ["next", null]);
  assert.ok(ms < 2_000, `took ${Math.round(ms)} ms`);
});
