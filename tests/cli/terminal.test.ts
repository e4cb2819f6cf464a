/**
 * The commands at a real terminal (a pseudo-terminal from `script`): `flow` attaching and answering a
 * question and a confirmation at prompts, the live indicator while an agent works, and colour rules.
 */

import assert from "node:assert/strict";
import { call, closeClient, mcpClient, runWeft, WEFT, withServedProject } from "../support/service.ts";
import { ESC, NOTES_PROJECT, Terminal } from "./support.ts";

Deno.test("on a terminal, flow attaches and the person answers questions and a confirmation", async () => {
  await withServedProject({ files: NOTES_PROJECT }, async (served) => {
    const cwd = served.projectDir;
    const terminal = new Terminal(["flow", "notes", "--intent", "Notes of 1.2"], {
      cwd,
      env: { NO_COLOR: "1" },
    });
    try {
      let seen = await terminal.waitFor("choose 1-2: ");
      await terminal.type("2");
      seen = await terminal.waitFor("> ", seen);
      await terminal.type("Faster starts");
      seen = await terminal.waitFor("> ", await terminal.waitFor("(Enter to skip)", seen));
      await terminal.type("");

      const context = await terminal.waitFor("Please confirm:", seen);
      seen = await terminal.waitFor("confirm (y) or revise (r)? ", context);
      // The data to confirm reads as the IDE's form shows it: labelled fields and bullets, not JSON.
      const shown = terminal.output.slice(context, seen);
      assert.match(shown, /- Audience: Developers/);
      assert.doesNotMatch(shown, /"questionId"/);
      await terminal.type("maybe");
      seen = await terminal.waitFor("please type one of: y, r", seen);
      await terminal.type("r");
      seen = await terminal.waitFor("What should change?", seen);
      await terminal.type("Say who benefits.");
      await terminal.type("And keep it short.");
      await terminal.type("");

      // The questions come back, and the terminal says why, above them.
      const why = await terminal.waitFor("This comes back because:", seen);
      seen = await terminal.waitFor("choose 1-2: ", why);
      assert.match(
        terminal.output.slice(why, seen),
        /• revision requested: Say who benefits\.\s+And keep it short\.[^]*Who reads these notes\?/,
      );
      await terminal.type("Users");
      seen = await terminal.waitFor("> ", seen);
      await terminal.type("Faster starts for everyone");
      seen = await terminal.waitFor("> ", await terminal.waitFor("(Enter to skip)", seen));
      await terminal.type("Thanks to all");
      seen = await terminal.waitFor("confirm (y) or revise (r)? ", seen);
      await terminal.type("y");
      await terminal.waitFor(
        "main.ts artifacts --flow notes",
        await terminal.waitFor("see what it committed: ", seen),
      );
      assert.equal(await terminal.exit(), 0);
      assert.ok(!terminal.output.includes(ESC), "NO_COLOR must turn colour off");

      const { stdout } = await runWeft(["runs", "--json"], { cwd });
      const [run] = JSON.parse(stdout).runs;
      assert.equal(run.status, "completed");
      const timeline = JSON.parse((await runWeft(["run", run.runId, "--json"], { cwd })).stdout).timeline;
      const answers = timeline.filter((event: { type: string }) => event.type === "action_answered");
      assert.deepEqual(
        answers.map((event: { source: string; answer: unknown }) => [event.source, event.answer]).slice(1, 2),
        [
          ["cli", { isConfirmed: false, feedback: "Say who benefits.\nAnd keep it short." }],
        ],
      );
      assert.equal(answers.length, 4);
      const artifact = JSON.parse(
        (await runWeft(["artifact", "--flow", "notes", "--stage", "draft", "--json"], { cwd }))
          .stdout,
      ).artifact;
      assert.deepEqual(artifact.data, [
        // Picked as "2) Users": kept by the option's id, with its label.
        { questionId: "audience", isSkipped: false, answer: "users", label: "Users" },
        { questionId: "highlight", isSkipped: false, answer: "Faster starts for everyone" },
        { questionId: "extra", isSkipped: false, answer: "Thanks to all" },
      ]);
    } finally {
      await terminal.kill();
    }
  });
});

Deno.test("attach shows a live indicator while an agent works; Ctrl-C detaches; it ends with the Run", async () => {
  await withServedProject({ files: NOTES_PROJECT }, async (served) => {
    const cwd = served.projectDir;
    const ide = await mcpClient(served, "/mcp");
    let terminal: Terminal | undefined;
    try {
      const { run } = await call<{ run: { runId: string } }>(ide, "flow", {
        flowName: "intent",
        intent: "An app",
      });
      const piped = await runWeft(["attach", run.runId], { cwd });
      assert.equal(piped.code, 0);
      assert.match(piped.stdout, /waits for +agent ".+" \(available\), executed by the IDE's agent/);

      terminal = new Terminal(["attach", run.runId], { cwd });
      await terminal.waitFor("executed by the IDE's agent · 0:");
      await terminal.interrupt();
      assert.equal(await terminal.exit(), 0, "Ctrl-C detaches without an error");
      assert.match(terminal.output, /detached; the Run goes on/);
      assert.match(terminal.output, new RegExp(`${WEFT} attach ${run.runId}`));
      const after = await call<{ run: { status: string } }>(ide, "get_run", { runId: run.runId });
      assert.equal(after.run.status, "waiting", "detaching leaves the Run as it is");

      terminal = new Terminal(["attach", run.runId], { cwd });
      await terminal.waitFor("executed by the IDE's agent · 0:");
      await call(ide, "cancel_run", { runId: run.runId });
      // attach hears of the cancel from its subscription; it would otherwise re-read only after minutes.
      await terminal.waitFor("cancelled");
      assert.equal(await terminal.exit(), 6);
      assert.match(terminal.output, /cancelled/);
    } finally {
      await terminal?.kill();
      await closeClient(ide);
    }
  });
});

Deno.test("colour only on a terminal, and never with NO_COLOR or --no-color", async () => {
  await withServedProject({ files: NOTES_PROJECT }, async (served) => {
    const cwd = served.projectDir;
    const coloured = new Terminal(["flows"], { cwd });
    assert.equal(await coloured.exit(), 0);
    assert.ok(coloured.output.includes(`${ESC}32mready${ESC}0m`), coloured.output);
    const plain = new Terminal(["flows"], { cwd, env: { NO_COLOR: "1" } });
    assert.equal(await plain.exit(), 0);
    assert.match(plain.output, /notes +ready +project/);
    assert.ok(!plain.output.includes(ESC), plain.output);
    // --no-color as the seed's program takes it: before the command, or among its options.
    for (const args of [["--no-color", "flows"], ["flows", "--no-color"]]) {
      const flag = new Terminal(args, { cwd });
      assert.equal(await flag.exit(), 0, flag.output);
      assert.match(flag.output, /notes +ready +project/);
      assert.ok(!flag.output.includes(ESC), flag.output);
    }
    const piped = await runWeft(["flows"], { cwd });
    assert.match(piped.stdout, /notes +ready +project/);
    assert.ok(!piped.stdout.includes(ESC), piped.stdout);
  });
});
