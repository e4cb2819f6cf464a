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

Deno.test("progress heartbeat: beats go on at the interval while the form stays open, and stop when it closes", async () => {
  const beats: number[] = [];
  const call = {
    server: {
      // The person answers only once three beats arrived: the first goes out at once, the rest by the timer.
      elicitInput: async () => {
        await eventually("three progress beats while the form is open", () => beats.length >= 3 || undefined);
        return { action: "accept", content: {} };
      },
    },
    extra: {
      requestId: 1,
      signal: new AbortController().signal,
      _meta: { progressToken: "p1" },
      sendNotification: (notification: { params: { progress: number } }) => {
        beats.push(notification.params.progress);
        return Promise.resolve();
      },
    },
  } as unknown as ToolCall;

  const reply = await askPerson(FORM, call, {
    engine: QUIET_ENGINE,
    runId: "run_1",
    actionId: "act_1",
    progressEveryMs: 5,
  });
  assert.equal(reply.action, "accept");
  assert.ok(PROGRESS_EVERY_MS < 60_000, "the real interval beats inside a client's 60 s request timeout");
  assert.deepEqual(beats.slice(0, 3), [1, 2, 3], "progress counts up, one beat at a time");
  const atClose = beats.length;
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(beats.length, atClose, "no beat after the form closed");
});

Deno.test("progress heartbeat: a client that gave no progress token gets no notifications", async () => {
  let sent = 0;
  const call = {
    server: { elicitInput: () => Promise.resolve({ action: "decline" }) },
    extra: {
      requestId: 1,
      signal: new AbortController().signal,
      sendNotification: () => {
        sent++;
        return Promise.resolve();
      },
    },
  } as unknown as ToolCall;
  const reply = await askPerson(FORM, call, {
    engine: QUIET_ENGINE,
    runId: "run_1",
    actionId: "act_1",
    progressEveryMs: 5,
  });
  assert.equal(reply.action, "decline");
  assert.equal(sent, 0);
});
