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
