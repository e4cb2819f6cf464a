/**
 * The process groups of running commands, recorded in a folder of `.weft/` while they run, so that the next
 * start ends those a killed service (`kill -9`, a crash) left running. A record names the group and its
 * leader's start time (Linux's `/proc`, in clock ticks since boot, with the boot's id), and a group is
 * signalled only when it is verifiably still that one:
 *
 * - its leader runs with the recorded start time; or
 * - its leader is gone and members of its group and session remain (a test runner's children), each started
 *   no earlier than the leader. The kernel hands a pid out again only once no process uses it as its id, its
 *   group or its session, so while such members live the number cannot have been reused.
 *
 * A leader whose pid now runs with another start time means the group ended and the number was reused: that
 * process is never signalled. A record also names the command's tag, which every process it started carries
 * in its environment (`process_group.ts`): those that left the group are ended by it too. Where `/proc`
 * cannot be read (other systems) nothing is recorded, and a killed service's command runs on until it ends by
 * itself, as it did before.
 *
 * @module
 */
import { join } from "node:path";
import { endTaggedProcesses } from "./process_group.ts";

/** One recorded group: its id (its leader's pid) and who its leader was. */
export interface GroupRecord {
  pgid: number;
  /** The leader's start, in clock ticks since boot (`/proc/<pid>/stat`, field 22). */
  startTicks: number;
  /** The boot it ran in (`/proc/sys/kernel/random/boot_id`): after a reboot every record is stale. */
  bootId: string;
  /** The command's tag in its processes' environment (absent in records of older versions). */
  tag?: string;
}

/** What `/proc` says of one process. */
interface ProcessStat {
  pgrp: number;
  session: number;
  startTicks: number;
}

/** The records of one project's running command groups, one file each. */
export class GroupLedger {
  constructor(readonly folder: string) {}

  /**
   * Records the group `pid` leads; resolves to the record, or undefined where the leader cannot be
   * identified (no `/proc`, or it has ended already).
   */
  async record(pid: number, tag?: string): Promise<GroupRecord | undefined> {
    const stat = readStat(pid);
    const bootId = readBootId();
    if (!stat || !bootId) return undefined;
    const record: GroupRecord = { pgid: pid, startTicks: stat.startTicks, bootId, ...(tag ? { tag } : {}) };
    await Deno.mkdir(this.folder, { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(this.#file(record), JSON.stringify(record) + "\n", { mode: 0o600 });
    return record;
  }

  /** Removes the record of a group that has been ended; one already gone is fine. */
  async forget(record: GroupRecord): Promise<void> {
    await Deno.remove(this.#file(record)).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }

  /** Every group recorded and not forgotten; an unreadable record is dropped. */
  async records(): Promise<GroupRecord[]> {
    const records: GroupRecord[] = [];
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(this.folder));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    for (const entry of entries) {
      const path = join(this.folder, entry.name);
      // Only a file this service wrote names a group to signal; anything else is left as it is.
      if (!entry.name.endsWith(".json") || !writtenByUs(path)) continue;
      const record = parseRecord(await Deno.readTextFile(path).catch(() => ""));
      if (record && entry.name === fileName(record)) records.push(record);
      else await Deno.remove(path).catch(() => {});
    }
    return records;
  }

  #file(record: GroupRecord): string {
    return join(this.folder, fileName(record));
  }
}

/**
 * Ends the groups of `records` that are still the ones recorded: `SIGTERM`, then `SIGKILL` to those still
 * there after `graceMs`; then kills what carries a record's tag of this boot (processes that left the group);
 * then forgets every record. Resolves to the pgids it signalled.
 */
export async function endLeftoverGroups(
  ledger: GroupLedger,
  records: readonly GroupRecord[],
  graceMs: number,
): Promise<number[]> {
  const ours = records.filter(stillOurs);
  for (const record of ours) signal(record.pgid, "SIGTERM");
  // These groups are no children of ours, so no exit is told: their ending is looked for, a few times.
  let left = ours;
  for (let waited = 0; left.length && waited < graceMs; waited += GRACE_STEP_MS) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(GRACE_STEP_MS, graceMs - waited)));
    left = left.filter(stillOurs);
  }
  for (const record of left) signal(record.pgid, "SIGKILL");
  for (const record of records) {
    // A tag is random and only weft's command processes carry it: killing by it needs no proof of the pgid.
    if (record.tag && record.bootId === readBootId()) await endTaggedProcesses(record.tag);
    await ledger.forget(record);
  }
  return ours.map((record) => record.pgid);
}

/** How often a signalled leftover group is looked at during its grace period. */
const GRACE_STEP_MS = 50;

/** Whether the group of `record` still runs as the one recorded (see the module's rules). */
function stillOurs(record: GroupRecord): boolean {
  if (record.bootId !== readBootId()) return false;
  const leader = readStat(record.pgid);
  if (leader) return leader.startTicks === record.startTicks && leader.pgrp === record.pgid;
  return groupMembers(record).length > 0;
}

/** The processes of this user left in the group and session of `record`, started no earlier than its leader. */
function groupMembers(record: GroupRecord): number[] {
  const members: number[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync("/proc")];
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry.name)) continue;
    const pid = Number(entry.name);
    const stat = readStat(pid);
    if (
      stat && stat.pgrp === record.pgid && stat.session === record.pgid &&
      stat.startTicks >= record.startTicks && ownedByUs(pid)
    ) members.push(pid);
  }
  return members;
}

/** `/proc/<pid>/stat` of a live process (a zombie has ended); undefined when there is none. */
function readStat(pid: number): ProcessStat | undefined {
  let text: string;
  try {
    text = Deno.readTextFileSync(`/proc/${pid}/stat`);
  } catch {
    return undefined;
  }
  // The fields after the parenthesised command name, which may itself hold spaces or parentheses; the
  // first of them is field 3 (the state).
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  if (fields[0] === "Z" || fields.length < 20) return undefined;
  return { pgrp: Number(fields[2]), session: Number(fields[3]), startTicks: Number(fields[19]) };
}

/** A regular file of this user with one link and mode 0600, as {@linkcode GroupLedger.record} writes it. */
function writtenByUs(path: string): boolean {
  try {
    const info = Deno.lstatSync(path);
    return info.isFile && (info.uid === null || info.uid === Deno.uid()) && (info.nlink ?? 1) === 1 &&
      ((info.mode ?? 0o600) & 0o777) === 0o600;
  } catch {
    return false;
  }
}

function ownedByUs(pid: number): boolean {
  try {
    const uid = /^Uid:\s+(\d+)/m.exec(Deno.readTextFileSync(`/proc/${pid}/status`))?.[1];
    return uid !== undefined && Number(uid) === Deno.uid();
  } catch {
    return false;
  }
}

function readBootId(): string | undefined {
  try {
    return Deno.readTextFileSync("/proc/sys/kernel/random/boot_id").trim() || undefined;
  } catch {
    return undefined;
  }
}

function signal(pgid: number, name: Deno.Signal): void {
  try {
    Deno.kill(-pgid, name);
  } catch {
    // The group ended meanwhile.
  }
}

/** One file per group and leader, so that a record of a reused pid never overwrites or removes another. */
function fileName(record: GroupRecord): string {
  return `${record.pgid}-${record.startTicks}.json`;
}

function parseRecord(text: string): GroupRecord | undefined {
  try {
    const value = JSON.parse(text);
    if (
      Number.isSafeInteger(value?.pgid) && value.pgid > 1 && Number.isSafeInteger(value.startTicks) &&
      typeof value.bootId === "string"
    ) {
      const tag = typeof value.tag === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(value.tag)
        ? value.tag
        : undefined;
      return {
        pgid: value.pgid,
        startTicks: value.startTicks,
        bootId: value.bootId,
        ...(tag ? { tag } : {}),
      };
    }
  } catch {
    // Unreadable: dropped.
  }
  return undefined;
}
