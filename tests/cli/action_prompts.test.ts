/**
 * The terminal prompts for a pending action, fed typed lines in-process: choices, "other" where the options
 * are suggestions, and skips.
 */

import assert from "node:assert/strict";
import { promptAnswer } from "../../src/cli/run_views/action_prompts.ts";
import { Prompter } from "../../src/cli/terminal/prompt.ts";
import type { PendingActionView } from "../../src/engine/views.ts";

/** A prompter that reads `typed` and keeps what it shows, as a person at a terminal would see it. */
function scripted(typed: string): { prompter: Prompter; shown: () => string } {
  let shown = "";
  const output = {
    writeSync(bytes: Uint8Array) {
      shown += new TextDecoder().decode(bytes);
      return bytes.length;
    },
    isTerminal: () => false,
  } as unknown as typeof Deno.stderr;
  const input = ReadableStream.from([new TextEncoder().encode(typed)]);
  return { prompter: new Prompter(input, output), shown: () => shown };
}

const ACTION: PendingActionView = {
  id: "act_1",
  kind: "user_ask_questions",
  createdAt: "2026-01-01T00:00:00.000Z",
  request: {
    questions: [
      { id: "target", question: "Target?", options: [{ id: "md", label: "Markdown" }], isSkippable: false },
      {
        id: "format",
        question: "Format?",
        options: [{ id: "md", label: "Markdown" }, { id: "pdf", label: "PDF" }],
        allowOther: true,
        isSkippable: true,
      },
      { id: "notes", question: "Notes?", isSkippable: true },
    ],
  },
};

Deno.test("a choice that allows other answers takes a written one after o; closed ones do not offer it", async () => {
  const { prompter, shown } = scripted("o\n1\no\nAsciiDoc\n\n");
  const answer = await promptAnswer(ACTION, prompter);
  assert.deepEqual(answer, [
    { questionId: "target", isSkipped: false, answer: "Markdown" },
    { questionId: "format", isSkipped: false, answer: "AsciiDoc" },
    { questionId: "notes", isSkipped: true },
  ]);
  assert.match(shown(), /please type one of: 1/, "o is refused where the choice is closed");
  assert.match(shown(), /choose 1-2, o for other, or s to skip/);
  // What the person types follows the bare prompt, never a hint.
  assert.match(shown(), /\(Enter to skip\)\n> $/);
  assert.doesNotMatch(shown(), /> \(Enter to skip\)/);
});
