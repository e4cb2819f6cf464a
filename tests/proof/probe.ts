/**
 * What every suite checks on what the service says: a tool answer classified as a result or an error, the
 * RunView invariants of docs/reference.md, and the absence of stack traces, machine paths and tokens.
 *
 * @module
 */

import type { Client } from "../support/sdk_test_client.ts";
import type { RunView } from "../../src/engine/views.ts";
import { ERROR_CODES } from "../../src/errors.ts";

/** The error payload of a failed tool call. */
export interface ErrorShape {
  code: string;
  message: string;
  retryable: boolean;
}

/** A tool's answer: its structured result, or its classified error payload. */
export type Outcome<T = Record<string, unknown>> =
  | { ok: true; value: T; text: string }
  | { ok: false; error: ErrorShape; text: string };

/** Calls a tool; transport failures (a killed service) throw, tool errors come back as `ok: false`. */
export async function tool<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Outcome<T>> {
  const result = await client.callTool({ name, arguments: args }) as {
    isError?: boolean;
    structuredContent?: unknown;
    content?: { type: string; text?: string }[];
  };
  const text = result.content?.[0]?.text ?? "";
  if (result.isError) {
    const error = (parseJson(text) as { error?: ErrorShape } | undefined)?.error;
    return { ok: false, error: error ?? { code: "UNCLASSIFIED", message: text, retryable: false }, text };
  }
  return { ok: true, value: result.structuredContent as T, text };
}

/** Whether an error payload carries one of the catalog's codes with the right shape. */
export function isClassified(error: ErrorShape): boolean {
  return Object.hasOwn(ERROR_CODES, error.code) && typeof error.message === "string" &&
    typeof error.retryable === "boolean";
}

/** The broken RunView invariants of one Run (empty when it is sound). */
export function runViolations(run: RunView): string[] {
  const problems: string[] = [];
  const where = `run ${run.runId} (${run.status})`;
  if (run.status === "waiting") {
    if (Boolean(run.pendingAction) === Boolean(run.pendingAgentCall)) {
      problems.push(`${where}: waiting must hold exactly one of pendingAction / pendingAgentCall`);
    }
  } else if (run.pendingAction || run.pendingAgentCall) {
    problems.push(`${where}: only a waiting Run may publish a pending action or agent call`);
  }
  if (run.status === "failed" && !run.lastError) problems.push(`${where}: failed without lastError`);
  if (run.lastError && !isClassified(run.lastError)) {
    problems.push(`${where}: lastError is not classified: ${JSON.stringify(run.lastError)}`);
  }
  return problems;
}

/** Patterns of a stack frame: `at f (file:///…:1:2)`, `at /…/x.ts:3:4`. */
const STACK = [/\bat\s+\S*\s*\(?(?:file|ext|node):/, /\bat\s+\S+\.(?:ts|js|mjs):\d+/, /\.ts:\d+:\d+/];

/** The leaks found in a text: stack traces, any of the given secrets, machine paths. */
export function leaks(text: string, secrets: { tokens: string[]; paths: string[] }): string[] {
  const found: string[] = [];
  for (const pattern of STACK) if (pattern.test(text)) found.push(`stack trace (${pattern})`);
  for (const token of secrets.tokens) {
    if (token && text.includes(token)) found.push("a bearer or owner token");
  }
  for (const path of secrets.paths) if (path && text.includes(path)) found.push(`machine path ${path}`);
  return found;
}

/** The machine paths no answer may contain: the project, its real path, `/work`, `/tmp`, home. */
export function machinePaths(projectDir: string): string[] {
  const home = Deno.env.get("HOME");
  const paths = [projectDir, Deno.realPathSync(projectDir), "/work/", "/tmp/"];
  if (home && home.length > 1) paths.push(home + "/");
  return [...new Set(paths)];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Prints a suite's figures as one JSON line, and its violations (the first 50) on stderr. */
export function report(name: string, figures: object & { violations: string[] }): void {
  const { violations, ...rest } = figures;
  console.log(JSON.stringify({ suite: name, ...rest, violations: violations.length }));
  for (const violation of violations.slice(0, 50)) console.error(`violation: ${violation}`);
}
