/** Which timeline events belong to which task: those between its start and its end, its latest start's only. */

import assert from "node:assert/strict";
import { taskEvidence } from "../../src/studio/page/task_evidence.ts";
import type { RunEvent } from "../../src/studio/page/types.ts";

let seq = 0;
const event = (type: string, fields: Record<string, unknown> = {}) =>
  ({ seq: ++seq, at: "", type, stageName: "tasks", stepName: "s", ...fields }) as RunEvent;

Deno.test("each task keeps the last command and changes of its own run, nothing of another task's", () => {
  const events = [
    event("list_started"),
    event("command_ended", { exitCode: 9 }),
    event("item_started", { itemId: "a" }),
    event("command_ended", { exitCode: 1 }),
    event("command_ended", { exitCode: 0 }),
    event("changes_read", { files: 1 }),
    event("item_ended", { itemId: "a" }),
    event("command_ended", { exitCode: 7 }),
    event("item_started", { itemId: "b" }),
    event("command_ended", { exitCode: 2 }),
    event("list_ended"),
    event("command_ended", { exitCode: 8 }),
  ];
  const evidence = taskEvidence(events);
  assert.deepEqual([...evidence.keys()], ["a", "b"]);
  assert.equal(evidence.get("a")?.command?.exitCode, 0, "the last of a's attempts");
  assert.equal(evidence.get("a")?.changes?.files, 1);
  assert.equal(evidence.get("b")?.command?.exitCode, 2);
  assert.equal(evidence.get("b")?.changes, undefined, "b read no changes");
  const again = taskEvidence([...events, event("item_started", { itemId: "a" })]);
  assert.deepEqual(again.get("a"), {}, "a begun again keeps only what its latest start led to");
});
