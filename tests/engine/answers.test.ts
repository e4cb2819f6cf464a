/**
 * Questions whose options are suggestions: published with `allowOther`, and answered with any written text.
 */

import assert from "node:assert/strict";
import { publishQuestions, validateQuestionsAnswer } from "../../src/engine/answers.ts";
import { WeftError } from "../../src/errors.ts";

const OPTIONS = [{ id: "md", label: "Markdown" }, { id: "pdf", label: "PDF" }];

Deno.test("a question that allows other answers takes written text; a closed one takes only its options", () => {
  const questions = publishQuestions([
    { id: "format", question: "Format?", options: OPTIONS, allowOther: true },
    { id: "target", question: "Target?", options: OPTIONS },
    { id: "free", question: "Notes?", allowOther: true },
  ]);
  assert.equal(questions[0].allowOther, true);
  assert.equal("allowOther" in questions[1], false, "closed choices publish no allowOther");
  assert.equal("allowOther" in questions[2], false, "allowOther means nothing without options");

  const answer = validateQuestionsAnswer(questions, [
    { questionId: "format", isSkipped: false, answer: "AsciiDoc" },
    { questionId: "target", isSkipped: false, answer: "PDF" },
    { questionId: "free", isSkipped: false, answer: "none" },
  ]);
  assert.equal(answer[0].answer, "AsciiDoc");

  assert.throws(
    () =>
      validateQuestionsAnswer(questions, [
        { questionId: "format", isSkipped: false, answer: "AsciiDoc" },
        { questionId: "target", isSkipped: false, answer: "AsciiDoc" },
        { questionId: "free", isSkipped: false, answer: "none" },
      ]),
    (error) =>
      error instanceof WeftError && error.code === "INVALID_REQUEST" &&
      /options of "target"/.test(error.message),
  );
});
