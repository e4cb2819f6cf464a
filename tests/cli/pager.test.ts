/** Paging a review's diff at a prompt: Enter shows more, n goes to the next file, s skips the rest. */
import assert from "node:assert/strict";
import { pageBlocks } from "../../src/cli/terminal/pager.ts";
import { Prompter } from "../../src/cli/terminal/prompt.ts";

/** A prompter reading `typed` and writing into a string. */
function prompter(typed: string) {
  let written = "";
  const output = {
    isTerminal: () => false,
    writeSync: (bytes: Uint8Array) => {
      written += new TextDecoder().decode(bytes);
      return bytes.length;
    },
  } as unknown as typeof Deno.stderr;
  const input = ReadableStream.from([new TextEncoder().encode(typed)]);
  return { prompter: new Prompter(input, output), written: () => written };
}

const FILES = [
  ["a 1", "a 2", "a 3", "a 4", "a 5", "a 6", "a 7", "a 8"],
  ["b 1", "b 2", "b 3", "b 4", "b 5", "b 6"],
  ["c 1", "c 2"],
];

Deno.test("pager: a short diff is written whole, without a prompt", async () => {
  const { prompter: p, written } = prompter("");
  assert.equal(await pageBlocks(p, [["x"], ["y"]], 0, 10), true);
  assert.equal(written(), "x\ny\n");
});

Deno.test("pager: Enter shows the next page, n skips to the next file, s skips the rest", async () => {
  const { prompter: p, written } = prompter("\n\nn\n");
  assert.equal(await pageBlocks(p, FILES, 0, 5), true);
  const text = written();
  assert.match(text, /a 5\n-- line 5 of 16 /);
  assert.match(
    text,
    /a 8\n-- line 8 of 16 [^\n]*b 1\n/,
    "a file's first lines start the next page, not end this one",
  );
  assert.match(text, /b 5\n-- line 13 of 16 [^\n]*c 1\nc 2\n$/, "n leaves b's last line for c");
  assert.doesNotMatch(text, /b 6/);
  await p.close();
  const skipping = prompter("s\n");
  assert.equal(await pageBlocks(skipping.prompter, FILES, 0, 5), true);
  assert.match(skipping.written(), /a 5\n-- line 5 of 16 [^\n]*\(11 more lines not shown\)\n$/);
  await skipping.prompter.close();
});

Deno.test("pager: input that ends while paging says so", async () => {
  const { prompter: p } = prompter("");
  assert.equal(await pageBlocks(p, FILES, 0, 5), false);
});
