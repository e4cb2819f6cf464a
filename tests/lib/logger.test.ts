/** The service log keeps secrets out: fields named like tokens, intents or answers never reach the file. */

import assert from "node:assert/strict";
import { Logger } from "../../src/lib/logger.ts";
import { tempProject } from "../support/service.ts";

Deno.test("log redaction: token, authorization, intent, answer, secret and password fields never reach the file", async () => {
  const dir = await tempProject();
  try {
    const logger = Logger.open(dir, "inst_test");
    logger.log("tool.called", {
      tool: "answer_ask",
      runId: "run_1",
      ownerToken: "OWNER-TOKEN-VALUE",
      Authorization: "Bearer BEARER-VALUE",
      intent: "INTENT-VALUE",
      answer: "ANSWER-VALUE",
      clientSecret: "SECRET-VALUE",
      password: "PASSWORD-VALUE",
    });
    logger.close();
    const text = await Deno.readTextFile(`${dir}/inst_test.jsonl`);
    const [line] = text.trim().split("\n").map((entry) => JSON.parse(entry));
    assert.deepEqual(Object.keys(line).sort(), ["at", "event", "runId", "tool"]);
    assert.equal(line.runId, "run_1", "operational fields stay");
    assert.doesNotMatch(text, /VALUE/, "no value of a redacted field is anywhere in the file");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
