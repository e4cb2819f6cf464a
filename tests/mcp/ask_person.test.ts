/**
 * Waiting for a person on a form: the progress heartbeat keeps beating for as long as the form is open, and
 * stops with it. Driven in process with a short interval, so the test never waits for the real 15 s.
 */

import assert from "node:assert/strict";
import { askPerson, PROGRESS_EVERY_MS } from "../../src/mcp/elicitation/ask_person.ts";
import type { Engine } from "../../src/engine/engine.ts";
import type { ToolCall } from "../../src/mcp/tool.ts";
import type { ActionForm } from "../../src/mcp/elicitation/form.ts";
import { eventually } from "../support/deadline.ts";

/** An engine whose Runs never change while the form is open. */
const QUIET_ENGINE = { onRunChanged: () => () => {} } as unknown as Engine;

const FORM = { message: "Pick one", requestedSchema: { type: "object", properties: {} } } as ActionForm;

/**
 * A tool call whose client shows forms with `person` and collects the progress it is sent; a progress token
 * is given unless `progressToken` is null.
 */
function formCall(
  person: () => Promise<unknown>,
  beats: number[],
  progressToken: string | null = "p1",
): ToolCall {
  return {
    server: { elicitInput: person },
    ctx: {
      mcpReq: {
        id: 1,
        signal: new AbortController().signal,
        ...(progressToken === null ? {} : { _meta: { progressToken } }),
        notify: (notification: { params: { progress: number } }) => {
          beats.push(notification.params.progress);
          return Promise.resolve();
        },
      },
    },
  } as unknown as ToolCall;
}

/** Waits on `call`'s form with a 5 ms heartbeat. */
function ask(call: ToolCall) {
  return askPerson(FORM, call, {
    engine: QUIET_ENGINE,
    runId: "run_1",
    actionId: "act_1",
    progressEveryMs: 5,
  });
}

Deno.test("progress heartbeat: beats go on at the interval while the form stays open, and stop when it closes", async () => {
  const beats: number[] = [];
  // The person answers only once three beats arrived: the first goes out at once, the rest by the timer.
  const reply = await ask(formCall(async () => {
    await eventually("three progress beats while the form is open", () => beats.length >= 3 || undefined);
    return { action: "accept", content: {} };
  }, beats));
  assert.equal(reply.action, "accept");
  assert.ok(PROGRESS_EVERY_MS < 60_000, "the real interval beats inside a client's 60 s request timeout");
  assert.deepEqual(beats.slice(0, 3), [1, 2, 3], "progress counts up, one beat at a time");
  const atClose = beats.length;
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(beats.length, atClose, "no beat after the form closed");
});

Deno.test("progress heartbeat: a client that gave no progress token gets no notifications", async () => {
  const beats: number[] = [];
  const reply = await ask(formCall(() => Promise.resolve({ action: "decline" }), beats, null));
  assert.equal(reply.action, "decline");
  assert.deepEqual(beats, []);
});
