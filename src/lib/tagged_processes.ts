/**
 * Processes found by an entry of their environment: a program started with `NAME=value` passes it to every
 * process it starts, and they to theirs, even those that leave its process group and session (`setsid`, a
 * daemon's double fork). Only a process that replaces its environment (`env -i`) drops it. On Linux the
 * environment a process started with is `/proc/<pid>/environ`, readable for the user's own processes;
 * elsewhere nothing can be found this way.
 *
 * @module
 */

/** How many times processes are looked for and killed: one that forks meanwhile is found the next time. */
const MAX_ROUNDS = 8;

/** Whether processes can be found by their environment here (Linux with a readable `/proc`). */
export function canFindByEnvironment(): boolean {
  if (Deno.build.os !== "linux") return false;
  try {
    Deno.readFileSync("/proc/self/environ");
    return true;
  } catch {
    return false;
  }
}

/**
 * Kills (`SIGKILL`) every process of this user, other than this one, whose environment holds exactly
 * `name=value`, looking again until none is left (at most a few rounds); resolves to the pids killed.
 */
export async function killByEnvironment(name: string, value: string): Promise<number[]> {
  const killed: number[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const found = await findByEnvironment(name, value);
    if (!found.length) break;
    for (const pid of found) {
      try {
        Deno.kill(pid, "SIGKILL");
        killed.push(pid);
      } catch {
        // It ended meanwhile.
      }
    }
  }
  return killed;
}

/** The pids of this user's live processes, other than this one, whose environment holds `name=value`. */
export async function findByEnvironment(name: string, value: string): Promise<number[]> {
  if (Deno.build.os !== "linux") return [];
  const entry = `\0${name}=${value}\0`;
  const found: number[] = [];
  let pids: number[];
  try {
    pids = [...Deno.readDirSync("/proc")].filter((item) => /^\d+$/.test(item.name)).map((item) =>
      Number(item.name)
    );
  } catch {
    return [];
  }
  const uid = Deno.uid();
  for (const pid of pids) {
    if (pid === Deno.pid) continue;
    try {
      // latin1 keeps every byte one character, so the entry is matched byte for byte.
      const environ = new TextDecoder("latin1").decode(await Deno.readFile(`/proc/${pid}/environ`));
      if (`\0${environ}`.includes(entry) && (await Deno.stat(`/proc/${pid}`)).uid === uid) found.push(pid);
    } catch {
      // Gone, or not readable: not ours to end.
    }
  }
  return found;
}
