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

/**
 * Whether process `pid` is the one listening on 127.0.0.1:`port`, owned by the current user (Linux: the
 * listening socket in `/proc/net/tcp` must be the user's and among the process's descriptors). A client
 * checks this before it sends a token, so a program that took the port of a stopped service gets none.
 * Where it cannot be read, it is assumed.
 */
export function listensOn(pid: number, port: number): boolean {
  if (Deno.build.os !== "linux") return true;
  let table: string;
  try {
    table = Deno.readTextFileSync("/proc/net/tcp");
  } catch {
    return true;
  }
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  const row = table.split("\n").map((line) => line.trim().split(/\s+/))
    .find((fields) => fields[1] === local && fields[3] === "0A");
  if (!row) return false;
  if (Number(row[7]) !== Deno.uid()) return false;
  const socket = `socket:[${row[9]}]`;
  try {
    for (const entry of Deno.readDirSync(`/proc/${pid}/fd`)) {
      if (Deno.readLinkSync(`/proc/${pid}/fd/${entry.name}`) === socket) return true;
    }
  } catch {
    return true;
  }
  return false;
}
