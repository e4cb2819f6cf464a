/**
 * A command's output at the terminal as it arrives: `weft flow` and `weft attach` print each line under the
 * command's start line while it still runs, with a live line saying how long it has run on a terminal (plain
 * lines when stdout is not one), then the end line, without printing any line twice.
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import { call, closeClient, mcpClient, withServedProject } from "../support/service.ts";
import { waitForRun } from "../model/support.ts";
import { ESC, Terminal } from "../cli/support.ts";
import { commandFiles, startRun, STEPWISE } from "./support.ts";

const FILES = commandFiles("stepwise", { run: ["sh", "-c", STEPWISE] });

/** Lets the command print its first lines, checks what the terminal shows before and after it ends. */
async function driveStepwise(terminal: Terminal, projectDir: string, from = 0): Promise<string> {
  let seen = await terminal.waitFor("▸ verify/run: running sh -c", from);
  await Deno.writeTextFile(`${projectDir}/start`, "");
  seen = await terminal.waitFor("    │ first\r\n", seen);
  await terminal.waitFor("    │ warning\r\n", seen);
  assert.doesNotMatch(terminal.output, /│ second|verify\/run: passed/, "shown before the command printed it");
  await Deno.writeTextFile(`${projectDir}/go`, "");
  await terminal.waitFor("✓ verify/run: passed (exit 0", await terminal.waitFor("    │ second\r\n", seen));
  return terminal.output.slice(from);
}

Deno.test("weft flow shows a command's lines as they arrive, with a live line on a terminal, then the end line", async () => {
  await withServedProject({ trusted: true, files: FILES }, async (served) => {
    const terminal = new Terminal(["flow", "stepwise", "--intent", "check it"], {
      cwd: served.projectDir,
      env: { NO_COLOR: "1" },
    });
    try {
      const shown = await driveStepwise(terminal, served.projectDir);
      assert.equal(await terminal.exit(), 0);
      // The live line is redrawn in place: a carriage return, then the clearing of the row.
      assert.match(
        shown.replaceAll(`${ESC}2K`, "<clear>"),
        /\r<clear>\S+ verify\/run: running sh -c .* · \d+:\d\d\r/,
        "no live line with the time",
      );
      for (const line of ["first", "warning", "second"]) {
        assert.equal(shown.split(`│ ${line}\r\n`).length, 2, `"${line}" is not shown exactly once`);
      }
      assert.ok(
        shown.indexOf("│ second") < shown.indexOf("✓ verify/run: passed"),
        "the last line comes before the end line",
      );
    } finally {
      await terminal.kill();
    }
  });
});

Deno.test("weft attach shows a running command's lines as they arrive; plain lines when stdout is not a terminal", async () => {
  await withServedProject({ trusted: true, files: FILES }, async (served) => {
    const client = await mcpClient(served, "/internal/mcp");
    const run = await startRun(client, "stepwise");
    await waitForRun(
      client,
      run.runId,
      "running its command",
      (view) => view.pendingCommand?.phase === "running",
    );
    const terminal = new Terminal(["attach", run.runId], {
      cwd: served.projectDir,
      env: { NO_COLOR: "1" },
      stdoutPiped: true,
    });
    try {
      // Attached once the command ran: its start line came before; its lines come as they arrive.
      const seen = await terminal.waitFor("following");
      await Deno.writeTextFile(`${served.projectDir}/start`, "");
      await terminal.waitFor("    │ warning\r\n", await terminal.waitFor("    │ first\r\n", seen));
      assert.doesNotMatch(terminal.output, /│ second/);
      await Deno.writeTextFile(`${served.projectDir}/go`, "");
      await terminal.waitFor(
        "✓ verify/run: passed (exit 0",
        await terminal.waitFor("    │ second\r\n", seen),
      );
      assert.equal(await terminal.exit(), 0);
      assert.ok(!terminal.output.includes(`${ESC}2K`), "a live line was drawn on a pipe");
      const { run: ended } = await call<{ run: RunView }>(client, "get_run", { runId: run.runId });
      assert.equal(ended.status, "completed");
    } finally {
      await terminal.kill();
      await closeClient(client);
    }
  });
});
