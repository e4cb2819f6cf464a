/**
 * The fuzzer's input generator: seeded, so a failing input is reproduced from the seed and its index.
 * Each input is one HTTP request to an MCP endpoint; most carry a tools/call with hostile arguments.
 *
 * @module
 */

import type { Prng } from "./prng.ts";

/** Every tool name of the external endpoints. */
export const TOOL_NAMES = [
  "flow",
  "list_workflows",
  "get_run",
  "list_runs",
  "interact",
  "answer_ask",
  "cancel_run",
  "status",
  "get_record",
  "get_artifact",
  "list_artifacts",
  "get_agent_call",
  "claim_agent_call",
  "call_agent_tool",
  "read_agent_asset",
  "complete_agent_call",
  "fail_agent_call",
] as const;

/** Real identifiers the fuzzer mixes in: other Runs, stale action ids, stale and live owner tokens. */
export interface KnownIds {
  runIds: string[];
  callIds: string[];
  actionIds: string[];
  ownerTokens: string[];
  recordIds: string[];
  artifactIds: string[];
}

/** One request the fuzzer sends. */
export interface FuzzInput {
  kind: string;
  body: string | Uint8Array<ArrayBuffer>;
  contentType?: string;
  accept?: string;
  /** Which session id header to send. */
  session: "own" | "none" | "garbage";
}

const ODD_STRINGS = [
  "",
  " ",
  "\u0000",
  "\u202e\u202d",
  "\ud800",
  "\udfff\ud800",
  "e\u0301\u0301\u0301",
  "🏳️‍🌈".repeat(20),
  "\uFEFF",
  "../../../../etc/passwd",
  "/etc/passwd",
  "C:\\Windows\\win.ini",
  "%2e%2e%2f",
  "${HOME}",
  "__proto__",
  "constructor",
  "'; DROP TABLE runs; --",
  "\r\n\r\nHTTP/1.1 200 OK",
];

/** A random JSON value; `depth` bounds the nesting the value itself may add. */
export function randomValue(prng: Prng, depth = 3): unknown {
  const roll = prng.int(0, depth > 0 ? 9 : 6);
  switch (roll) {
    case 0:
      return null;
    case 1:
      return prng.chance(0.5);
    case 2:
      return prng.pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 513, 4097]);
    case 3:
    case 4:
      return prng.pick(ODD_STRINGS);
    case 5:
      return "x".repeat(prng.pick([511, 512, 513, 4096, 4097, 70_000]));
    case 6:
      return `run_${prng.int(0, 1e9).toString(36)}`;
    case 7:
      return Array.from({ length: prng.int(0, 4) }, () => randomValue(prng, depth - 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = prng.int(0, 4); i > 0; i--) object[prng.pick(FIELD_NAMES)] = randomValue(prng, depth - 1);
      return object;
    }
  }
}

const FIELD_NAMES = [
  "runId",
  "callId",
  "actionId",
  "ownerToken",
  "claimId",
  "toolCallId",
  "toolId",
  "assetId",
  "input",
  "result",
  "message",
  "answer",
  "flowName",
  "intent",
  "stageName",
  "artifactId",
  "recordId",
  "cursor",
  "limit",
  "status",
  "timeline",
  "path",
  "dir",
  "__proto__",
];

/** A value nested `depth` levels deep, as arrays or objects. */
export function deeplyNested(depth: number, objects: boolean): string {
  return objects ? '{"a":'.repeat(depth) + "1" + "}".repeat(depth) : "[".repeat(depth) + "]".repeat(depth);
}

/** Arguments close to valid for `name`, then damaged: a field dropped, retyped, added, or swapped for a real id. */
function nearlyValidArguments(prng: Prng, name: string, ids: KnownIds): Record<string, unknown> {
  const runId = prng.pick(ids.runIds);
  const ref = { runId, callId: prng.pick(ids.callIds) };
  const owner = { ...ref, ownerToken: prng.pick(ids.ownerTokens) };
  const base: Record<string, Record<string, unknown>> = {
    flow: { flowName: prng.pick(["ledger", "intent", "nope", "LEDGER"]), intent: prng.pick(ODD_STRINGS) },
    list_workflows: {},
    get_run: { runId, timeline: prng.chance(0.5) },
    list_runs: {
      flowName: "ledger",
      limit: prng.int(-1, 201),
      cursor: prng.pick(["x", "eyJ9", ...ids.runIds]),
    },
    interact: { runId, actionId: prng.pick(ids.actionIds) },
    answer_ask: { runId, actionId: prng.pick(ids.actionIds), answer: randomValue(prng) },
    cancel_run: { runId: prng.pick([runId, "run_missing"]) },
    status: {},
    get_record: { recordId: prng.pick([...ids.recordIds, "rec_missing"]) },
    get_artifact: prng.chance(0.5)
      ? { artifactId: prng.pick([...ids.artifactIds, "art_missing"]) }
      : { flowName: "ledger", stageName: prng.pick(["entry", "../entry", "nope"]) },
    list_artifacts: {
      flowName: "ledger",
      limit: prng.int(-2, 300),
      cursor: prng.pick(["", "abc", "eyJ4IjoxfQ"]),
    },
    get_agent_call: ref,
    claim_agent_call: { ...ref, claimId: prng.pick(["fuzz", "", " ", "x".repeat(513)]) },
    call_agent_tool: {
      ...owner,
      toolCallId: `t${prng.int(0, 3)}`,
      toolId: prng.pick(["get_context", "read_file", "list_files", "submit_specification", "nope"]),
      input: prng.pick([{}, { path: prng.pick(ODD_STRINGS) }, { dir: "../" }, { value: randomValue(prng) }]),
    },
    read_agent_asset: { ...owner, assetId: prng.pick(["specification-writing/template.md", ...ODD_STRINGS]) },
    complete_agent_call: { ...owner, result: prng.pick([{ outcome: "ready" }, randomValue(prng)]) },
    fail_agent_call: { ...owner, message: prng.pick(["gave up", "x".repeat(4097), ""]) },
  };
  const args = { ...(base[name] ?? {}) };
  const keys = Object.keys(args);
  const damage = prng.int(0, 4);
  if (damage === 0 && keys.length) delete args[prng.pick(keys)];
  else if (damage === 1 && keys.length) args[prng.pick(keys)] = randomValue(prng, 2);
  else if (damage === 2) args[prng.pick(FIELD_NAMES)] = randomValue(prng, 2);
  return args;
}

function rpc(method: string, params?: unknown, id: unknown = 1): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
}

/** The next fuzz input. */
export function nextInput(prng: Prng, ids: KnownIds): FuzzInput {
  const session = prng.chance(0.9) ? "own" : prng.pick(["none", "garbage"] as const);
  const roll = prng.int(0, 99);
  if (roll < 45) {
    const name = prng.pick(TOOL_NAMES);
    const args = prng.chance(0.7) ? nearlyValidArguments(prng, name, ids) : randomValue(prng);
    return { kind: "tool", session, body: rpc("tools/call", { name, arguments: args }, prng.int(1, 1e6)) };
  }
  if (roll < 55) {
    const name = prng.pick([...TOOL_NAMES, "nope", "", "../status", "STATUS"]);
    const params = prng.pick([{ name }, { name, arguments: null }, { arguments: {} }, [], "x", null]);
    return { kind: "tool-shape", session, body: rpc("tools/call", params, randomValue(prng, 1)) };
  }
  if (roll < 68) {
    const message = prng.pick<unknown>([
      { jsonrpc: "1.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 1 },
      { jsonrpc: "2.0", id: {}, method: "ping" },
      { jsonrpc: "2.0", id: 1, method: 42 },
      { jsonrpc: "2.0", id: 1, method: prng.pick(["nope", "tools/list/x", "resources/read", "prompts/get"]) },
      { jsonrpc: "2.0", id: 1, method: "initialize", params: randomValue(prng) },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: randomValue(prng) },
      { jsonrpc: "2.0", id: 1, result: randomValue(prng) },
      [],
      [{ jsonrpc: "2.0", id: 1, method: "ping" }, 5],
      randomValue(prng),
    ]);
    return { kind: "rpc-shape", session, body: JSON.stringify(message) };
  }
  if (roll < 80) {
    const valid = rpc("tools/call", { name: "status", arguments: {} });
    const body = prng.pick([
      "",
      "{",
      "[",
      "nul",
      valid.slice(0, prng.int(1, valid.length - 1)),
      valid + "}",
      valid.replace(":", "="),
      "\uFEFF" + valid,
    ]);
    return {
      kind: "malformed",
      session,
      body: prng.chance(0.1) ? new Uint8Array([0xff, 0xfe, 0x80, 0x00]) : body,
    };
  }
  if (roll < 88) {
    return {
      kind: "content-type",
      session,
      body: rpc("tools/call", { name: "status", arguments: {} }),
      contentType: prng.pick([
        "text/plain",
        "application/x-www-form-urlencoded",
        "",
        "application/json; charset=latin1",
      ]),
      accept: prng.pick(["text/html", "", "*/*", "application/json"]),
    };
  }
  if (roll < 97) {
    const depth = prng.pick([64, 1000, 10_000, 100_000]);
    const nested = deeplyNested(depth, prng.chance(0.5));
    const name = prng.pick(TOOL_NAMES);
    return {
      kind: "deep",
      session,
      body:
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":{"input":${nested}}}}`,
    };
  }
  const size = prng.pick([4 * 1024 * 1024 - 200, 4 * 1024 * 1024 + 1, 6 * 1024 * 1024]);
  const pad = "y".repeat(size);
  return {
    kind: "oversize",
    session,
    body: rpc("tools/call", { name: "flow", arguments: { flowName: "ledger", intent: pad } }),
  };
}
