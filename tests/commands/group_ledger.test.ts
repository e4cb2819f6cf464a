/**
 * The record of running command groups, from which a start after a crash ends what a killed service left
 * running: a recorded group still led by its leader is ended, and so are the members a gone leader left in
 * its group, while a pid that now names another process (another start time), a record of another boot and a
 * file the service did not write are never acted on. Checked by pid.
 */
import assert from "node:assert/strict";
import { endLeftoverGroups, GroupLedger, type GroupRecord } from "../../src/commands/group_ledger.ts";
import { eventually } from "../support/deadline.ts";
import { alive } from "./support.ts";

/** Runs `fn` with a ledger in a fresh folder and `sh -c script` spawned as its own group; ends both after. */
async function withGroup(
  script: string,
  fn: (ledger: GroupLedger, leader: Deno.ChildProcess, dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "weft-ledger-" });
  const leader = new Deno.Command("sh", { args: ["-c", script], cwd: dir, stdin: "null", detached: true })
    .spawn();
  try {
    await fn(new GroupLedger(`${dir}/commands`), leader, dir);
  } finally {
    try {
      Deno.kill(-leader.pid, "SIGKILL");
    } catch {
      // ended by the test
    }
    await leader.status;
    await Deno.remove(dir, { recursive: true });
  }
}

async function childPid(dir: string): Promise<number> {
  return await eventually("the group's child to start", async () => {
    const text = await Deno.readTextFile(`${dir}/child`).catch(() => "");
    return text.trim() ? Number(text) : undefined;
  });
}

Deno.test("a recorded group still led by its leader is ended, children included, and its record forgotten", async () => {
  await withGroup("sleep 1000 & echo $! > child; wait", async (ledger, leader, dir) => {
    const child = await childPid(dir);
    const record = await ledger.record(leader.pid);
    assert.ok(record, "the leader could not be identified from /proc");
    assert.deepEqual(await ledger.records(), [record]);
    const { mode } = await Deno.stat(`${dir}/commands`);
    assert.equal(mode! & 0o777, 0o700);

    assert.deepEqual(await endLeftoverGroups(ledger, await ledger.records(), 100), [leader.pid]);
    await eventually("the recorded group to be gone", () => !alive(leader.pid) && !alive(child) || undefined);
    assert.deepEqual(await ledger.records(), []);
  });
});

Deno.test("members a gone leader left in its group are ended", async () => {
  await withGroup(
    "sleep 1000 & echo $! > child; while [ ! -f exit ]; do sleep 0.02; done",
    async (ledger, leader, dir) => {
      const child = await childPid(dir);
      const record = (await ledger.record(leader.pid))!;
      await Deno.writeTextFile(`${dir}/exit`, "");
      await leader.status;
      assert.ok(alive(child), "the child should outlive its leader");
      assert.deepEqual(await endLeftoverGroups(ledger, [record], 100), [leader.pid]);
      await eventually("the leader's leftover child to be gone", () => !alive(child) || undefined);
    },
  );
});

Deno.test("a pid that names another process now, a record of another boot and a file weft did not write are never signalled", async () => {
  await withGroup("sleep 1000 & echo $! > child; wait", async (ledger, leader, dir) => {
    const child = await childPid(dir);
    const record = (await ledger.record(leader.pid))!;
    await ledger.forget(record);
    const reused: GroupRecord = { ...record, startTicks: record.startTicks - 1 };
    const otherBoot: GroupRecord = { ...record, bootId: "00000000-0000-0000-0000-000000000000" };
    assert.deepEqual(await endLeftoverGroups(ledger, [reused, otherBoot], 100), []);

    // A record that came from elsewhere (mode 0644, as a checkout writes) names the live group exactly.
    await Deno.writeTextFile(
      `${dir}/commands/${record.pgid}-${record.startTicks}.json`,
      JSON.stringify(record),
      { mode: 0o644 },
    );
    await Deno.chmod(`${dir}/commands/${record.pgid}-${record.startTicks}.json`, 0o644);
    assert.deepEqual(await ledger.records(), []);
    assert.ok(
      alive(leader.pid) && alive(child),
      "a group that is not verifiably the recorded one was signalled",
    );
  });
});
