/** `weft logs`: the project's JSON-lines logs, filtered by Run, and followed as they grow. */

import assert from "node:assert/strict";
import { StreamText, within } from "../support/deadline.ts";
import { runWeft, tempProject } from "../support/service.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

const line = (at: string, event: string, fields: Record<string, unknown> = {}) =>
  JSON.stringify({ at, event, ...fields }) + "\n";

Deno.test("logs prints every instance's lines in time order, and only one Run's when asked", async () => {
  const cwd = await tempProject({
    ".weft/logs/inst_a.jsonl": line("2025-01-01T10:00:00.000Z", "service.started", { port: 1 }) +
      line("2025-01-01T10:00:02.000Z", "engine", { runId: "run_1", detail: "x" }),
    ".weft/logs/inst_b.jsonl": line("2025-01-01T10:00:01.000Z", "engine", { runId: "run_2" }) + "{torn",
  });
  try {
    const all = await runWeft(["logs", "--json"], { cwd });
    assert.equal(all.code, 0);
    const events = all.stdout.trim().split("\n").map((text) => JSON.parse(text));
    assert.deepEqual(events.map((e) => e.at.slice(17, 19)), ["00", "01", "02"]);
    const one = await runWeft(["logs", "run_1", "--json"], { cwd });
    assert.deepEqual(one.stdout.trim().split("\n").map((text) => JSON.parse(text).runId), ["run_1"]);
    const human = await runWeft(["logs", "run_1"], { cwd });
    assert.equal(human.stdout, "2025-01-01 10:00:02Z  engine  runId=run_1 detail=x\n");
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("logs --follow prints lines as they are appended and stops on SIGTERM", async () => {
  const cwd = await tempProject({ ".weft/logs/inst_a.jsonl": line("2025-01-01T10:00:00.000Z", "first") });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "logs", "--follow"],
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const output = new StreamText(child.stdout, "weft logs --follow");
  try {
    await output.until("first");
    await Deno.writeTextFile(`${cwd}/.weft/logs/inst_b.jsonl`, line("2025-01-01T10:00:05.000Z", "second"));
    await output.until("second");
    child.kill("SIGTERM");
    assert.equal((await within("weft logs --follow to exit on SIGTERM", child.status)).code, 0);
    assert.match(output.text, /10:00:00Z {2}first\n.*10:00:05Z {2}second\n/);
  } finally {
    await output.cancel();
    try {
      child.kill("SIGKILL");
    } catch {
      // already ended
    }
    await child.status;
    await Deno.remove(cwd, { recursive: true });
  }
});
