/**
 * What the benchmark leaves behind, tracked from the moment it exists (child processes, temp dirs, MCP
 * clients), so everything is removed at the end, on error, on Ctrl-C and when the overall deadline passes.
 *
 * @module
 */

import type { Client, StreamableHTTPClientTransport } from "../support/sdk_test_client.ts";
import { STEP_TIMEOUT_MS } from "./config.ts";

/** Every child process still running. */
export const children = new Set<Deno.ChildProcess>();
const tempDirs = new Set<string>();
/** Every MCP client still connected. */
export const clients = new Set<Client>();

/** Set once cleanup starts: no new child or temp dir may be made after it. */
let stopping = false;

/** Closes every client, stops every child (SIGTERM, then SIGKILL) and removes every temp dir. */
export async function cleanup(): Promise<void> {
  stopping = true;
  await Promise.allSettled([...clients].map((client) => closeClient(client)));
  for (const child of children) {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
  }
  await Promise.race([
    Promise.allSettled([...children].map((child) => child.status)),
    sleep(5000),
  ]);
  for (const child of children) {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
  }
  children.clear();
  for (const dir of tempDirs) await Deno.remove(dir, { recursive: true }).catch(() => {});
  tempDirs.clear();
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    Deno.unrefTimer(timer);
  });
}

/** `promise`, or a rejection naming `what` once `ms` pass. */
export async function withTimeout<T>(promise: Promise<T>, what: string, ms = STEP_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A tracked temp dir holding `files` (path → text). */
export async function tempDir(files: Record<string, string> = {}): Promise<string> {
  if (stopping) throw new Error("stopping");
  const dir = await Deno.makeTempDir({ prefix: "weft-bench-" });
  if (stopping) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw new Error("stopping");
  }
  tempDirs.add(dir);
  for (const [path, content] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, content);
  }
  return dir;
}

/** Removes a temp dir before cleanup would. */
export async function removeTempDir(dir: string): Promise<void> {
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  tempDirs.delete(dir);
}

/** Whether cleanup has started. */
export function isStopping(): boolean {
  return stopping;
}

/** Ends a client's session and closes it. */
export async function closeClient(client: Client): Promise<void> {
  clients.delete(client);
  const transport = client.transport as StreamableHTTPClientTransport | undefined;
  await transport?.terminateSession().catch(() => {});
  await client.close().catch(() => {});
}

/** Closes every client still connected. */
export async function closeAllClients(): Promise<void> {
  for (const client of [...clients]) await closeClient(client);
}
