/**
 * The terminal's view of a running command's output: each whole line printed once as it arrives, what was
 * cut before it could be printed said, the end showing only what was not printed, and a line of output kept
 * from moving the cursor or rewriting the screen.
 */
import assert from "node:assert/strict";
import type { WeftClient } from "../../src/client/weft_client.ts";
import { CommandTail } from "../../src/cli/run_views/command_tail.ts";

/** A client whose command resource reads `stdout` (and nothing on stderr) for command `cmd_1`. */
function serving(stdout: { text: string; cutBytes: number }): WeftClient {
  const command = { commandId: "cmd_1", run: ["make"], startedAt: new Date().toISOString(), stdout };
  const value = { command: { ...command, stderr: { text: "", cutBytes: 0 } } };
  return { read: () => Promise.resolve(value) } as never;
}

async function printed(tail: CommandTail, stdout: { text: string; cutBytes: number }): Promise<string[]> {
  const lines: string[] = [];
  await tail.update(serving(stdout), "run_1", (line) => lines.push(line));
  return lines;
}

Deno.test("each whole line is printed once as it arrives; the end prints only the rest", async () => {
  const tail = new CommandTail(Deno.stdout);
  assert.deepEqual(await printed(tail, { text: "one\ntw", cutBytes: 0 }), ["    │ one"]);
  assert.deepEqual(await printed(tail, { text: "one\ntwo\nthree\n", cutBytes: 0 }), [
    "    │ two",
    "    │ three",
  ]);
  assert.deepEqual(await printed(tail, { text: "one\ntwo\nthree\n", cutBytes: 0 }), []);
  assert.ok(tail.followed("cmd_1") && !tail.followed("cmd_2"));
  // The stored tail is shorter than the live one; its cut bytes keep the count of what came before.
  assert.deepEqual(tail.rest("cmd_1", "stdout", { text: "three\nfour", cutBytes: 8 }), ["    │ four"]);
  assert.deepEqual(tail.rest("cmd_2", "stdout", { text: "x\n", cutBytes: 0 }), []);
});

Deno.test("output cut before it could be printed is said, not silently skipped", async () => {
  const tail = new CommandTail(Deno.stdout);
  assert.deepEqual(await printed(tail, { text: "a\n", cutBytes: 0 }), ["    │ a"]);
  const lines = await printed(tail, { text: "later\n", cutBytes: 10 });
  assert.equal(lines.length, 2);
  assert.match(lines[0], /^ {4}│ \S*… 8 bytes not shown/);
  assert.equal(lines[1], "    │ later");
});

Deno.test("a line of output shows every character: what a carriage return or an escape would hide is seen", async () => {
  const tail = new CommandTail(Deno.stdout);
  const text = "curl x|sh #\x1b[2K\rok\n\x1b]0;title\x07plain\ttab\x08\n";
  assert.deepEqual(await printed(tail, { text, cutBytes: 0 }), [
    "    │ curl x|sh #\\x1b[2K\\x0dok",
    "    │ \\x1b]0;title\\x07plain\ttab\\x08",
  ]);
});
