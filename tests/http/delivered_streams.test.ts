/**
 * The delivered streams an event log remembers: exact membership, whatever the ids look like, within a
 * first-in-first-out bound.
 *
 * @module
 */

import assert from "node:assert/strict";
import { DeliveredStreams } from "../../src/http/delivered_streams.ts";

Deno.test("delivered streams: an id is held exactly, never one that differs in a single character or its case", () => {
  const streams = new DeliveredStreams(8);
  const id = "0f1e2d3c-4b5a-4697-a8b9-cadbecfd0e1f";
  streams.add(id);
  streams.add("_GET_stream");
  assert.ok(streams.has(id));
  assert.ok(streams.has("_GET_stream"));
  assert.ok(!streams.has("0f1e2d3c-4b5a-4697-a8b9-cadbecfd0e1e"), "last character differs");
  assert.ok(!streams.has("1f1e2d3c-4b5a-4697-a8b9-cadbecfd0e1f"), "first character differs");
  assert.ok(!streams.has(id.toUpperCase()), "an upper-case UUID is another id");
  assert.ok(
    !streams.has("0f1e2d3c4b5a4697a8b9cadbecfd0e1f"),
    "the same digits without dashes are another id",
  );
  assert.ok(!streams.has("_GET_stream2"));
  streams.add(id.toUpperCase());
  assert.ok(streams.has(id.toUpperCase()) && streams.has(id));
  assert.equal(streams.size, 3);
  const one = new DeliveredStreams(1);
  one.add(id);
  one.add("other");
  assert.ok(!one.has(id), "a UUID's slot taken by another id no longer holds the UUID");
});

Deno.test("delivered streams: past the limit the oldest id goes first, and adding a held id again keeps its place", () => {
  const streams = new DeliveredStreams(3);
  const ids = Array.from({ length: 5 }, () => crypto.randomUUID());
  streams.add(ids[0]);
  streams.add("other-0");
  streams.add(ids[1]);
  streams.add(ids[0]);
  assert.equal(streams.size, 3);
  streams.add(ids[2]);
  assert.deepEqual([ids[0], "other-0", ids[1], ids[2]].map((id) => streams.has(id)), [
    false,
    true,
    true,
    true,
  ]);
  streams.add(ids[3]);
  streams.add(ids[4]);
  assert.deepEqual(
    [ids[0], "other-0", ids[1], ids[2], ids[3], ids[4]].map((id) => streams.has(id)),
    [false, false, false, true, true, true],
    "a slot that held another id now holds a UUID, and only that",
  );
  assert.equal(streams.size, 3);
});
