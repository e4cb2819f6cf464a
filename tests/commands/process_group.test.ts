/**
 * One command as its own process group: how it ended (exit code, signal, timeout), its output bounded and
 * marked as cut, no standard input, only the environment given, a missing program classified, and the whole
 * group gone after a timeout or an abort, checked by pid.
 */
import assert from "node:assert/strict";
import {
  COMMAND_TAG,
  type GroupEnd,
  type GroupOptions,
  runProcessGroup,
} from "../../src/commands/process_group.ts";
import type { CommandResult } from "../../src/engine/command_step.ts";
import { eventually, within } from "../support/deadline.ts";
import { alive } from "./support.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";

function run(script: string, options: Partial<GroupOptions> = {}): Promise<GroupEnd> {
  return within(
    `sh -c ${script}`,
    runProcessGroup({
      argv: ["sh", "-c", script],
      cwd: Deno.cwd(),
      env: { PATH },
      timeoutMs: 30_000,
      signal: new AbortController().signal,
      graceMs: 2000,
      ...options,
    }),
  );
}

function resultOf(end: GroupEnd): CommandResult {
  assert.equal(end.kind, "result", JSON.stringify(end));
  return (end as { result: CommandResult }).result;
}

Deno.test("exit 0 and a non-zero exit are told apart, with each stream's text", async () => {
  const ok = resultOf(await run("echo out; echo err >&2"));
  assert.deepEqual(
    { exitCode: ok.exitCode, signal: ok.signal, timedOut: ok.timedOut, stdout: ok.stdout, stderr: ok.stderr },
    {
      exitCode: 0,
      signal: null,
      timedOut: false,
      stdout: { text: "out\n", cutBytes: 0 },
      stderr: { text: "err\n", cutBytes: 0 },
    },
  );
  assert.equal(resultOf(await run("exit 3")).exitCode, 3);
});

Deno.test("a command ended by a signal reports the signal and no exit code", async () => {
  const result = resultOf(await run("kill -TERM $$"));
  assert.equal(result.exitCode, null);
  assert.equal(result.signal, "SIGTERM");
  assert.equal(result.timedOut, false);
});

Deno.test("a timeout ends the whole process group: the leader and the child it left running", async () => {
  const dir = await Deno.makeTempDir();
  try {
    let leader = 0;
    const end = await run(`sleep 1000 & echo $! > ${dir}/child; wait`, {
      timeoutMs: 200,
      onSpawn: (pid) => leader = pid,
    });
    const result = resultOf(end);
    assert.equal(result.timedOut, true);
    assert.equal(result.exitCode, null);
    const child = Number(await Deno.readTextFile(`${dir}/child`));
    assert.ok(child > 0 && leader > 0);
    await eventually("the timed-out group to be gone", () => !alive(leader) && !alive(child) || undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an abort ends the whole group, even one that ignores SIGTERM, and reports aborted", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const controller = new AbortController();
    const ending = run(`trap '' TERM; sleep 1000 & echo $! > ${dir}/child; wait; wait`, {
      signal: controller.signal,
      graceMs: 100,
    });
    const child = await eventually("the child to start", async () => {
      const text = await Deno.readTextFile(`${dir}/child`).catch(() => "");
      return text.trim() ? Number(text) : undefined;
    });
    controller.abort();
    assert.deepEqual(await ending, { kind: "aborted" });
    await eventually("the aborted group to be gone", () => !alive(child) || undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("huge output is bounded to its last part and says how much was cut", async () => {
  const result = resultOf(await run("head -c 3000000 /dev/zero | tr '\\0' x; echo END", { tailBytes: 1024 }));
  assert.equal(result.stdout.text.length, 1024);
  assert.ok(result.stdout.text.endsWith("xEND\n"));
  assert.equal(result.stdout.cutBytes, 3_000_004 - 1024);
});

Deno.test("a command that reads standard input gets none: it reads end-of-file at once", async () => {
  const result = resultOf(await run("cat; echo read-done"));
  assert.equal(result.exitCode, 0);
  assert.equal(result.stdout.text, "read-done\n");
});

Deno.test("only the variables given reach the command", async () => {
  Deno.env.set("WEFT_TEST_SECRET", "hunter2");
  try {
    const result = resultOf(await run("env", { env: { PATH, VISIBLE: "yes" } }));
    assert.match(result.stdout.text, /^VISIBLE=yes$/m);
    assert.doesNotMatch(result.stdout.text, /hunter2|WEFT_TEST_SECRET/);
  } finally {
    Deno.env.delete("WEFT_TEST_SECRET");
  }
});

Deno.test("a missing program is classified, naming the program and no path", async () => {
  const end = await runProcessGroup({
    argv: ["weft-no-such-program", "--version"],
    cwd: Deno.cwd(),
    env: { PATH },
    timeoutMs: 1000,
    signal: new AbortController().signal,
    graceMs: 100,
  });
  assert.deepEqual(end, {
    kind: "not_started",
    reason: 'the program "weft-no-such-program" was not found on the service\'s PATH',
  });
});

Deno.test("a process that left the group and keeps writing loses its reader: the pipe is closed, it gets EPIPE", async () => {
  const dir = await Deno.makeTempDir();
  let leftover = 0;
  try {
    // `setsid` takes the writer out of the group and `env -u` drops the command's tag, so nothing but the
    // closed pipe can end it.
    const script =
      `setsid env -u ${COMMAND_TAG} sh -c 'echo $$ > ${dir}/leftover; while :; do echo tick; sleep 0.05; done' & ` +
      `while [ ! -s ${dir}/leftover ]; do sleep 0.01; done`;
    const result = resultOf(await run(script, { graceMs: 100 }));
    assert.equal(result.exitCode, 0);
    leftover = Number(await Deno.readTextFile(`${dir}/leftover`));
    assert.ok(leftover > 0);
    // Its next write finds no reader and SIGPIPE ends it; a reader left behind would keep it writing.
    await eventually(
      "the writer left outside the group to die of its closed pipe",
      () => !alive(leftover) || undefined,
    );
  } finally {
    if (leftover && alive(leftover)) Deno.kill(leftover, "SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("once the leader exits, what it left in its group is killed, even without the command's tag", async () => {
  const dir = await Deno.makeTempDir();
  let pids: number[] = [];
  try {
    // The brief form, and a child that dropped the tag: only the group's SIGKILL can end the second.
    const script =
      `sleep 30 & echo $! > ${dir}/plain; env -u ${COMMAND_TAG} sleep 600 & echo $! > ${dir}/untagged; exit 0`;
    assert.equal(resultOf(await run(script, { graceMs: 100 })).exitCode, 0);
    pids = [
      Number(await Deno.readTextFile(`${dir}/plain`)),
      Number(await Deno.readTextFile(`${dir}/untagged`)),
    ];
    await eventually("the sleeps left in the group to be gone", () => !pids.some(alive) || undefined);
  } finally {
    for (const pid of pids.filter(alive)) Deno.kill(pid, "SIGKILL");
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a process that left the group and its session is ended with the command: at its end, its timeout and an abort", async () => {
  for (const ending of ["end", "timeout", "abort"] as const) {
    const dir = await Deno.makeTempDir();
    let daemon = 0;
    try {
      const controller = new AbortController();
      const started = `setsid sh -c 'echo $$ > ${dir}/daemon; exec sleep 600' & ` +
        `while [ ! -s ${dir}/daemon ]; do sleep 0.01; done; `;
      const running = run(started + (ending === "end" ? "exit 0" : "sleep 600"), {
        graceMs: 100,
        timeoutMs: ending === "timeout" ? 300 : 30_000,
        signal: controller.signal,
      });
      daemon = await eventually(`the daemon to start (${ending})`, async () => {
        const text = await Deno.readTextFile(`${dir}/daemon`).catch(() => "");
        return text.trim() ? Number(text) : undefined;
      });
      if (ending === "abort") controller.abort();
      await running;
      await eventually(
        `the daemon to be gone after the command's ${ending}`,
        () => !alive(daemon) || undefined,
      );
    } finally {
      if (daemon && alive(daemon)) Deno.kill(daemon, "SIGKILL");
      await Deno.remove(dir, { recursive: true });
    }
  }
});
