/**
 * How notifications reach a session, in-process and without sockets: the event log's bounds and replay, the
 * metered body's soft and hard bounds, and coalescing while a client does not read.
 */

import assert from "node:assert/strict";
import { EventLog } from "../../src/http/event_log.ts";
import { MeteredBody } from "../../src/http/metered_body.ts";
import { Subscriptions } from "../../src/mcp/resources/subscriptions.ts";
import type { ChangeListener, EngineChange } from "../../src/engine/change_feed.ts";
import type { ServerNotification } from "../../src/mcp/sdk.ts";
import type { RunView } from "../../src/engine/views.ts";
import { tasksFingerprint } from "../../src/engine/run_tasks.ts";

const note = (uri: string) => ({ jsonrpc: "2.0" as const, method: "n", params: { uri } });

Deno.test("the event log replays a stream's events after an id exactly once, and says when some were evicted", async () => {
  const log = new EventLog({ events: 4, chars: 1_000_000 });
  const ids = [];
  for (const uri of ["a", "b", "c"]) ids.push(await log.storeEvent("_GET_stream", note(uri)));
  await log.storeEvent("other", note("x"));
  const replayed: string[] = [];
  const stream = await log.replayEventsAfter(ids[0], {
    send: (_id, message) =>
      Promise.resolve(void replayed.push((message as unknown as { params: { uri: string } }).params.uri)),
  });
  assert.equal(stream, "_GET_stream");
  assert.deepEqual(replayed, ["b", "c"], "only later events of the same stream");
  assert.deepEqual(log.resumption(ids[0]), { streamId: "_GET_stream", missed: false });

  await log.storeEvent("other", note("y"));
  assert.deepEqual(log.resumption(ids[0]), { streamId: "_GET_stream", missed: false }, "only a was evicted");
  await log.storeEvent("other", note("z"));
  assert.equal(log.size, 4);
  assert.deepEqual(log.resumption(ids[0]), { streamId: "_GET_stream", missed: true }, "b was evicted");
  assert.equal(log.resumption("999.x"), undefined, "an id never issued");
  assert.equal(log.resumption("garbage"), undefined);
});

Deno.test("the event log keeps within its character bound", async () => {
  const log = new EventLog({ events: 1000, chars: 200 });
  for (let i = 0; i < 50; i++) await log.storeEvent("s", note("u".repeat(40)));
  assert.ok(log.size <= 3, `held ${log.size} events of ~60 characters in 200`);
});

Deno.test("the event log forgets a request stream once delivered, never the GET stream, and forgetting loses nothing else", async () => {
  const log = new EventLog({ events: 4, chars: 1_000_000 });
  const seen = await log.storeEvent("_GET_stream", note("a"));
  const primed = await log.storeEvent("post1", {} as never);
  await log.storeEvent("post1", note("answer"));
  await log.storeEvent("_GET_stream", note("b"));
  log.delivered(primed);
  assert.equal(log.size, 2, "the answer's stream is gone");
  assert.equal(
    log.resumption(primed),
    undefined,
    "a delivered stream is not resumed into a wait for nothing",
  );
  assert.equal(await log.getStreamIdForEventId(primed), undefined);
  log.delivered(seen);
  assert.equal(log.size, 2, "the GET stream stays while its session lives");
  assert.deepEqual(
    log.resumption(seen),
    { streamId: "_GET_stream", missed: false },
    "forgetting is not evicting",
  );
  assert.deepEqual(await replayed(log, seen), ["b"]);

  // The bounds evict the GET stream's events: a resume from before them is told it missed some.
  for (const uri of ["c", "d", "e", "f"]) await log.storeEvent("_GET_stream", note(uri));
  assert.deepEqual(log.resumption(seen), { streamId: "_GET_stream", missed: true });
});

Deno.test("a metered body is delivered only once its reader took every chunk; a cancelled one is not", async () => {
  const encoded = (text: string) => new TextEncoder().encode(text);
  const ends: boolean[] = [];
  const whole = new MeteredBody(
    new ReadableStream({
      start: (controller) => {
        controller.enqueue(encoded("id: 7.s1\ndata: \n\n"));
        controller.enqueue(encoded("event: message\nid: 8.s1\ndata: {}\n\n"));
        controller.close();
      },
    }),
    (_body, delivered) => ends.push(delivered),
  );
  await tick();
  assert.equal(ends.length, 0, "the SDK's stream ended, but nothing was read yet");
  assert.equal(whole.firstEventId, "7.s1", "the priming event names the stream");
  const reader = whole.body.getReader();
  await reader.read();
  await tick();
  assert.equal(ends.length, 0, "one chunk is still unread");
  await reader.read();
  assert.equal((await reader.read()).done, true);
  assert.deepEqual(ends.slice(), [true]);

  const cancelled = new MeteredBody(
    new ReadableStream({ start: (controller) => controller.enqueue(encoded("id: 9.s2\ndata: \n\n")) }),
    (_body, delivered) => ends.push(delivered),
  );
  await tick();
  await cancelled.body.cancel();
  assert.deepEqual(ends, [true, false]);
});

Deno.test("a metered body stops being writable when unread, wakes when read, and is cut past the hard bound", async () => {
  let source!: ReadableStreamDefaultController<Uint8Array>;
  let ended = 0;
  const metered = new MeteredBody(
    new ReadableStream({ start: (controller) => void (source = controller) }),
    () => ended++,
    { soft: 2, hard: 5 },
  );
  const chunk = new Uint8Array([1]);
  source.enqueue(chunk);
  source.enqueue(chunk);
  await tick();
  assert.equal(metered.writable, false, "two unread chunks reach the soft bound");
  const drained = metered.drained();
  const reader = metered.body.getReader();
  await reader.read();
  await drained;
  assert.equal(metered.writable, true);

  for (let i = 0; i < 10; i++) source.enqueue(chunk);
  await tick();
  await assert.rejects(async () => {
    while (true) await reader.read();
  }, /stopped reading/);
  assert.equal(ended, 1, "the end is reported once");
  assert.equal(metered.writable, false);
});

Deno.test("while the client does not read, changes coalesce: one notification per resource, in first-change order", async () => {
  const feed = new FakeFeed();
  const sent: string[] = [];
  const subscriptions = new Subscriptions(feed, (n: ServerNotification) => {
    sent.push(String((n.params as { uri?: string } | undefined)?.uri ?? n.method));
    return Promise.resolve();
  });
  subscriptions.subscribe({ kind: "run", runId: "r1", timeline: false });
  subscriptions.subscribe({ kind: "run", runId: "r2", timeline: false });
  assert.equal(feed.listeners.size, 1);
  const stream = new FakeStream(false);
  subscriptions.opened(stream, false);
  for (let i = 0; i < 100; i++) {
    feed.emit(runChange("r2"));
    feed.emit(runChange("r1"));
    feed.emit(runChange("r3"));
  }
  await tick();
  assert.deepEqual(sent, [], "nothing is sent while the stream is backed up");
  stream.drain();
  await tick();
  assert.deepEqual(sent, ["weft://runs/r2", "weft://runs/r1"]);

  subscriptions.close();
  assert.equal(feed.listeners.size, 0, "closing the session removes its listener");
  feed.emit(runChange("r1"));
  await tick();
  assert.equal(sent.length, 2);
});

Deno.test("without a GET stream, notifications go out on a tool call in progress, else wait for one", async () => {
  const feed = new FakeFeed();
  const standalone: string[] = [];
  const onCall: string[] = [];
  const subscriptions = new Subscriptions(feed, () => Promise.resolve(void standalone.push("x")));
  subscriptions.subscribe({ kind: "run", runId: "r1", timeline: false });
  feed.emit(runChange("r1"));
  await tick();
  assert.deepEqual(standalone, []);
  const release = subscriptions.whileCalling((n) => Promise.resolve(void onCall.push(String(n.method))));
  await tick();
  assert.deepEqual(onCall, ["notifications/resources/updated"]);
  release();
  feed.emit(runChange("r1"));
  await tick();
  assert.deepEqual(onCall.length, 1, "a finished call carries nothing more");
  subscriptions.opened(new FakeStream(true), false);
  await tick();
  assert.deepEqual(standalone, ["x"]);
  subscriptions.close();
});

Deno.test("a Run's tasks resource is told only of changes that change its tasks or the Run's status", async () => {
  const feed = new FakeFeed();
  const sent: string[] = [];
  const subscriptions = new Subscriptions(feed, (n: ServerNotification) => {
    sent.push(String((n.params as { uri?: string } | undefined)?.uri ?? n.method));
    return Promise.resolve();
  });
  const list = (status: string) => ({ stageName: "s", items: [{ id: "a", status }] });
  const run = (status: string, runStatus = "running") =>
    ({ runId: "r1", flowName: "f", status: runStatus, list: list(status) }) as unknown as RunView;
  const change = (status: string, runStatus = "running") =>
    ({ kind: "run", run: run(status, runStatus), created: false, eventTypes: [] }) as EngineChange;
  subscriptions.subscribe({ kind: "tasks", runId: "r1" }, tasksFingerprint(run("pending")));
  subscriptions.opened(new FakeStream(true), false);
  feed.emit(change("pending"));
  await tick();
  assert.deepEqual(sent, [], "what was read when subscribing is not told again");
  feed.emit(change("running"));
  await tick();
  assert.deepEqual(sent, ["weft://runs/r1/tasks"], "a task's new status is told");
  feed.emit(change("running"));
  feed.emit(runChange("r2"));
  await tick();
  assert.equal(sent.length, 1, "a step that leaves the tasks, and another Run, tell nothing");
  feed.emit(change("done"));
  await tick();
  feed.emit(change("done", "completed"));
  await tick();
  assert.deepEqual(sent.length, 3, "a task's status, then the Run's, are told");
  subscriptions.close();
});

class FakeFeed {
  readonly listeners = new Set<ChangeListener>();
  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  emit(change: EngineChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

class FakeStream {
  #wake: (() => void) | undefined;
  constructor(public writable: boolean) {}
  drained(): Promise<void> {
    return this.writable ? Promise.resolve() : new Promise((resolve) => this.#wake = resolve);
  }
  drain(): void {
    this.writable = true;
    this.#wake?.();
  }
}

function runChange(runId: string): EngineChange {
  return { kind: "run", run: { runId } as RunView, created: false, eventTypes: [] };
}

/** The URIs `log` replays after `eventId`. */
async function replayed(log: EventLog, eventId: string): Promise<string[]> {
  const uris: string[] = [];
  await log.replayEventsAfter(eventId, {
    send: (_id, message) =>
      Promise.resolve(void uris.push((message as unknown as { params: { uri: string } }).params.uri)),
  });
  return uris;
}

/** Lets every queued promise job run (the loops under test only chain promises, no timers). */
async function tick(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
}
