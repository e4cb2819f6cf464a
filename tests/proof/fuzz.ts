/**
 * The fuzzer (`deno task fuzz`): seeded hostile requests against a real `weft serve` on 127.0.0.1. Every answer
 * must be a classified tool error or a protocol error (never a 5xx), must not leak a stack trace, a machine path
 * or a token, the process must stay up, and a valid request after the barrage must succeed.
 *
 * Usage: `deno task fuzz [--inputs N] [--seed N]`
 *
 * @module
 */

import { closeClient, mcpClient, serve, type ServedProject } from "../support/service.ts";
import { initializeRequest, mcpHeaders } from "../support/jsonrpc.ts";
import type { Client } from "../support/sdk_test_client.ts";
import type { RunView } from "../../src/engine/views.ts";
import { Actor, proofProject } from "./support.ts";
import { type FuzzInput, type KnownIds, nextInput } from "./inputs.ts";
import { numberArg, Prng, seedFrom } from "./prng.ts";
import { isClassified, leaks, machinePaths, report, tool } from "./probe.ts";

/** The figures of one fuzz run. */
export interface FuzzFigures {
  seed: number;
  inputs: number;
  byKind: Record<string, number>;
  byStatus: Record<string, number>;
  /** Tool error codes and JSON-RPC error codes seen, to show what the barrage reached. */
  byAnswer: Record<string, number>;
  violations: string[];
  seconds: number;
}

/** HTTP statuses that are protocol answers; anything else (a 5xx above all) is a violation. */
const PROTOCOL_STATUSES = new Set([200, 202, 400, 404, 405, 406, 413, 415]);

/** Runs `inputs` seeded requests and returns the figures; violations are collected, never thrown. */
export async function fuzz(options: { inputs: number; seed: number }): Promise<FuzzFigures> {
  const started = performance.now();
  const prng = new Prng(options.seed);
  const dir = await proofProject();
  const served = await serve(dir);
  let exited = false;
  served.process.status.then(() => exited = true);
  const client = await mcpClient(served, "/mcp", { name: "fuzz-setup" });
  const figures: FuzzFigures = {
    seed: options.seed,
    inputs: 0,
    byKind: {},
    byStatus: {},
    byAnswer: {},
    violations: [],
    seconds: 0,
  };
  try {
    const ids = await realIds(client, prng);
    const secrets = {
      tokens: [served.connection.externalToken, served.connection.internalToken, ...ids.ownerTokens],
      paths: machinePaths(dir),
    };
    const sessionId = await openSession(served);
    for (let i = 0; i < options.inputs && !exited; i++) {
      const input = nextInput(prng, ids);
      figures.inputs++;
      figures.byKind[input.kind] = (figures.byKind[input.kind] ?? 0) + 1;
      const { status, text } = await send(served, sessionId, input);
      figures.byStatus[status] = (figures.byStatus[status] ?? 0) + 1;
      const problems = judge(status, text, secrets, figures.byAnswer);
      for (const problem of problems) figures.violations.push(`input ${i} (${input.kind}): ${problem}`);
    }
    if (exited) figures.violations.push("the service process exited during the barrage");
    else {
      const after = await tool(client, "status", {});
      if (!after.ok) figures.violations.push(`status after the barrage failed: ${after.text}`);
      const fresh = await tool<{ run: RunView }>(client, "flow", {
        flowName: "ledger",
        intent: "after fuzz",
      });
      if (!fresh.ok || fresh.value.run.status !== "waiting") {
        figures.violations.push(`flow after the barrage: ${fresh.text}`);
      }
    }
    for await (const entry of Deno.readDir(`${dir}/.weft/logs`)) {
      const log = await Deno.readTextFile(`${dir}/.weft/logs/${entry.name}`);
      for (const token of secrets.tokens) {
        if (log.includes(token)) figures.violations.push("a token in the log");
      }
    }
  } finally {
    await closeClient(client).catch(() => {});
    if (!exited) await served.stop();
    await Deno.remove(dir, { recursive: true });
  }
  figures.seconds = (performance.now() - started) / 1000;
  return figures;
}

/** Real ids to mix in: Runs of both workflows, a live and a stale owner token, a stale action id. */
async function realIds(client: Client, prng: Prng): Promise<KnownIds> {
  const ids: KnownIds = {
    runIds: [],
    callIds: [],
    actionIds: [],
    ownerTokens: [],
    recordIds: [],
    artifactIds: [],
  };
  const actor = new Actor("fuzz", prng, client, new Map());
  const start = async (flowName: string) => {
    const outcome = await tool<{ run: RunView }>(client, "flow", { flowName, intent: "fuzz target" });
    if (!outcome.ok) throw new Error(`setup flow ${flowName}: ${outcome.text}`);
    ids.runIds.push(outcome.value.run.runId);
    return outcome.value.run;
  };
  const ledger = await start("ledger");
  ids.actionIds.push(ledger.pendingAction!.id);
  await actor.advance(ledger);
  for (const flowName of ["intent", "intent"]) {
    const run = await start(flowName);
    const ref = { runId: run.runId, callId: run.pendingAgentCall!.id };
    ids.callIds.push(ref.callId);
    const claimed = await tool<{ ownerToken: string }>(client, "claim_agent_call", {
      ...ref,
      claimId: "fuzz-owner",
    });
    if (claimed.ok) ids.ownerTokens.push(claimed.value.ownerToken);
  }
  // The second intent Run is cancelled: its owner token is now stale.
  await tool(client, "cancel_run", { runId: ids.runIds[2] });
  const artifacts = await tool<{ artifacts: { artifactId: string; recordId: string }[] }>(
    client,
    "list_artifacts",
    {},
  );
  if (artifacts.ok) {
    for (const artifact of artifacts.value.artifacts) {
      ids.artifactIds.push(artifact.artifactId);
      ids.recordIds.push(artifact.recordId);
    }
  }
  ids.runIds.push("run_does_not_exist");
  ids.callIds.push("call_does_not_exist");
  ids.ownerTokens.push("not-a-token");
  return ids;
}

/** Opens a raw session on `/mcp` and returns its id. */
async function openSession(served: ServedProject): Promise<string> {
  const body = JSON.stringify(initializeRequest("fuzz", 0));
  const response = await fetch(served.url + "/mcp", {
    method: "POST",
    headers: mcpHeaders(served.connection.externalToken),
    body,
  });
  await response.body?.cancel();
  const id = response.headers.get("mcp-session-id");
  if (!id) throw new Error(`no session: ${response.status}`);
  const initialized = await fetch(served.url + "/mcp", {
    method: "POST",
    headers: { ...mcpHeaders(served.connection.externalToken), "mcp-session-id": id },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await initialized.body?.cancel();
  return id;
}

/** Sends one input and returns the status and the whole body as text. */
async function send(served: ServedProject, sessionId: string, input: FuzzInput) {
  const head: Record<string, string> = mcpHeaders(served.connection.externalToken);
  if (input.contentType !== undefined) head["content-type"] = input.contentType;
  if (input.accept !== undefined) head.accept = input.accept;
  if (input.session === "own") head["mcp-session-id"] = sessionId;
  if (input.session === "garbage") head["mcp-session-id"] = "sess-\u00e9-garbage";
  try {
    const response = await fetch(served.url + "/mcp", { method: "POST", headers: head, body: input.body });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    // fetch refuses some header values itself (non-ISO-8859-1); then the request never left the process.
    if (error instanceof TypeError && /header/i.test(error.message)) return { status: 400, text: "" };
    throw error;
  }
}

/** The problems of one answer. */
function judge(
  status: number,
  text: string,
  secrets: { tokens: string[]; paths: string[] },
  seen: Record<string, number>,
): string[] {
  const count = (key: string) => seen[key] = (seen[key] ?? 0) + 1;
  const problems = leaks(text, secrets).map((leak) => `leaks ${leak}: ${text.slice(0, 300)}`);
  if (!PROTOCOL_STATUSES.has(status)) problems.push(`status ${status}: ${text.slice(0, 300)}`);
  for (const message of messagesOf(text)) {
    const result = message.result as { isError?: boolean; content?: { text?: string }[] } | undefined;
    if (message.error) {
      const code = (message.error as { code?: unknown }).code;
      count(`rpc ${code}`);
      if (typeof code !== "number") {
        problems.push(`protocol error without a numeric code: ${text.slice(0, 300)}`);
      } else if (code === -32603) {
        // An internal error is an unclassified failure at the protocol level, as INTERNAL is at the tool level.
        problems.push(`JSON-RPC internal error -32603: ${text.slice(0, 300)}`);
      }
    } else if (result?.isError) {
      const payload = parse(result.content?.[0]?.text ?? "") as { error?: { code: string } } | undefined;
      if (!payload?.error || !isClassified(payload.error as never)) {
        problems.push(`unclassified tool error: ${text.slice(0, 300)}`);
      } else if (payload.error.code === "INTERNAL") problems.push(`INTERNAL error: ${text.slice(0, 300)}`);
      count(payload?.error?.code ?? "unclassified");
    } else if (result) count("ok");
  }
  return problems;
}

/** The JSON-RPC messages of a body, whether plain JSON or server-sent events. */
function messagesOf(text: string): Record<string, unknown>[] {
  const chunks = text.trimStart().startsWith("{") || text.trimStart().startsWith("[")
    ? [text]
    : text.split("\n").filter((line) => line.startsWith("data:")).map((line) => line.slice(5));
  return chunks.flatMap((chunk) => {
    const value = parse(chunk);
    return (Array.isArray(value) ? value : [value]).filter((v): v is Record<string, unknown> =>
      typeof v === "object" && v !== null
    );
  });
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

if (import.meta.main) {
  const figures = await fuzz({ inputs: numberArg(Deno.args, "inputs", 5000), seed: seedFrom(Deno.args, 7) });
  report("fuzz", figures);
  Deno.exit(figures.violations.length === 0 ? 0 : 1);
}
