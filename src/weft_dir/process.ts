/**
 * Whether a process id belongs to a live process, without signalling it.
 *
 * @module
 */

import process from "node:process";

/**
 * `true` when a process with this pid runs (even one we may not signal); `false` when it is gone. A zombie
 * counts as gone: it has exited and holds nothing but its exit status, and where no init reaps orphans
 * (some containers) it would otherwise look alive forever.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    // Signal 0 performs the existence and permission checks and delivers nothing.
    process.kill(pid, 0);
  } catch (error) {
    if ((error as { code?: string }).code !== "EPERM") return false;
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  if (Deno.build.os !== "linux") return false;
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // The state follows the parenthesised command name, which may itself contain spaces or parentheses.
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z";
  } catch {
    return false;
  }
}

/**
 * Whether the live process `pid` can be a weft service of the current user. On Linux its owner and command
 * line are read (`serve` among its arguments); a process of another user or another program is not one,
 * even when a lock names it. Where that cannot be read (other systems, a hidden /proc), it is assumed to be.
 */
export function isOwnWeftService(pid: number): boolean {
  if (Deno.build.os !== "linux") return true;
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const uid = /^Uid:\s+(\d+)/m.exec(status)?.[1];
    if (uid !== undefined && Number(uid) !== Deno.uid()) return false;
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0").includes("serve");
  } catch (error) {
    return !(error instanceof Deno.errors.NotFound);
  }
}
