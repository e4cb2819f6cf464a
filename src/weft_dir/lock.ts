/**
 * The per-project lock that keeps one service per project. The lock file names its owner's pid and instance;
 * a lock whose pid is verifiably gone is a crashed instance's leftover and may be cleared.
 *
 * @module
 */

import { WeftError } from "../errors.ts";
import type { WeftPaths } from "./paths.ts";
import { isOwnWeftService, isProcessAlive } from "./process.ts";

/** Who holds the lock. */
export interface LockOwner {
  pid: number;
  instanceId: string;
  startedAt: string;
}

/** What the lock file says about the project's service right now. */
export type LockState =
  | { kind: "free" }
  | { kind: "held"; owner: LockOwner }
  | { kind: "stale"; owner: LockOwner | null; reason: string };

/** Reads the lock and classifies it; never changes anything. */
export async function inspectLock(paths: WeftPaths): Promise<LockState> {
  let text: string;
  try {
    text = await Deno.readTextFile(paths.lock);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { kind: "free" };
    throw error;
  }
  const owner = parseOwner(text);
  if (!owner) return { kind: "stale", owner: null, reason: "the lock file is unreadable" };
  if (!isProcessAlive(owner.pid)) {
    return { kind: "stale", owner, reason: `process ${owner.pid} that held it is gone` };
  }
  if (!isOwnWeftService(owner.pid)) {
    return {
      kind: "stale",
      owner,
      reason:
        `process ${owner.pid} that held it is gone (that pid is now another program, or another user's)`,
    };
  }
  return { kind: "held", owner };
}

/** Raised when another live process holds the project's lock. */
export class LockHeldError extends WeftError {
  constructor(readonly owner: LockOwner) {
    super("ALREADY_RUNNING", `another weft service (pid ${owner.pid}) already runs for this project`);
    this.name = "LockHeldError";
  }
}

/**
 * Takes the lock for `owner`, clearing a stale one first. Throws {@linkcode LockHeldError} when a live
 * process holds it. Creation is exclusive, so of two racing starters only one wins.
 */
export async function acquireLock(paths: WeftPaths, owner: LockOwner): Promise<void> {
  const content = JSON.stringify(owner) + "\n";
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await Deno.writeTextFile(paths.lock, content, { createNew: true, mode: 0o600 });
      return;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
    const state = await inspectLock(paths);
    if (state.kind === "held") throw new LockHeldError(state.owner);
    if (state.kind === "stale") await clearStaleLock(paths, state);
  }
  throw new Error("could not take the service lock: it keeps changing under us");
}

/**
 * Removes a lock only if it still says what `observed` saw, so that a lock a racing starter has just taken
 * is never removed in its place.
 */
export async function clearStaleLock(
  paths: WeftPaths,
  observed: LockState & { kind: "stale" },
): Promise<void> {
  const now = await inspectLock(paths);
  if (now.kind !== "stale") return;
  if (JSON.stringify(now.owner) !== JSON.stringify(observed.owner)) return;
  await Deno.remove(paths.lock).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
}

/** Releases the lock if `owner` still holds it. */
export async function releaseLock(paths: WeftPaths, owner: LockOwner): Promise<void> {
  const state = await inspectLock(paths);
  if (state.kind === "held" && state.owner.instanceId === owner.instanceId) {
    await Deno.remove(paths.lock).catch(() => {});
  }
}

function parseOwner(text: string): LockOwner | null {
  try {
    const value = JSON.parse(text);
    if (Number.isInteger(value?.pid) && typeof value.instanceId === "string") {
      return { pid: value.pid, instanceId: value.instanceId, startedAt: String(value.startedAt ?? "") };
    }
  } catch {
    // fall through: unreadable
  }
  return null;
}
