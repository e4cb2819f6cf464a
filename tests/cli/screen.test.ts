/**
 * The one writer of the `weft` command (`src/cli/terminal/screen.ts`): what it writes holds no control
 * character but weft's own colours and its live line's redraw, and no text can forge one of those colours.
 */

import assert from "node:assert/strict";
import { colour, redraw, say, type Stream, write } from "../../src/cli/terminal/screen.ts";

/** A stream that keeps what is written to it. */
function capture(): { stream: Stream; written: () => string } {
  const chunks: string[] = [];
  const stream = {
    writeSync(bytes: Uint8Array) {
      chunks.push(new TextDecoder().decode(bytes));
      return bytes.length;
    },
  } as unknown as Stream;
  return { stream, written: () => chunks.join("") };
}

Deno.test("screen: text is written with its control characters visible, weft's colours drawn", () => {
  const { stream, written } = capture();
  say(`${colour(32, "ok")} Ship\x1b[2K\rFine\x9b31m\u202e`, stream);
  assert.equal(written(), "\x1b[32mok\x1b[0m Ship\\x1b[2K\\x0dFine\\x9b31m\\u202e\n");
});

Deno.test("screen: a colour mark written by anything but colour() is shown, never drawn", () => {
  const { stream, written } = capture();
  const mark = colour(31, "x");
  // The same shape with another word than this process's: what a repository or an agent could write.
  const forged = mark.replace(/\ufdd0[^:]*:/g, "\ufdd0" + "0".repeat(32) + ":");
  write(forged, stream);
  assert.ok(!written().includes("\x1b"), JSON.stringify(written()));
});

Deno.test("screen: the live line is redrawn in place, its text visible", () => {
  const { stream, written } = capture();
  redraw("50%\r\x1b[1Adone", stream);
  assert.equal(written(), "\r\x1b[2K50%\\x0d\\x1b[1Adone");
});
