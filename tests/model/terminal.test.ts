/**
 * `weft flow intent --intent "…"` at a real terminal with the service's model: no IDE anywhere. The person
 * sees the model work (the step, each turn's tokens, each tool call) and answers the Run's question and
 * confirmations at prompts, asking for one revision.
 */
import assert from "node:assert/strict";
import { runWeft } from "../support/service.ts";
import { Terminal } from "../cli/support.ts";
import { scriptedServer } from "./scripted_server.ts";
import { intentModel, servedWithModel } from "./support.ts";

Deno.test("weft flow intent runs end to end at a terminal, showing what the model does", async () => {
  const model = scriptedServer("openai", intentModel());
  const { served, projectDir, userDir } = await servedWithModel({ protocol: "openai", url: model.url });
  const terminal = new Terminal(["flow", "intent", "--intent", "add CSV export"], {
    cwd: projectDir,
    env: { NO_COLOR: "1", XDG_CONFIG_HOME: userDir },
  });
  try {
    let seen = await terminal.waitFor("▸ specification/draft: the service's model works on it (specifier)");
    seen = await terminal.waitFor("turn 1 · scripted-gpt · 1200 in / 15 out tokens", seen);
    seen = await terminal.waitFor("↳ get_context", seen);
    seen = await terminal.waitFor("↳ submit_questions", seen);
    seen = await terminal.waitFor("✓ specification/draft: clarification_required", seen);
    seen = await terminal.waitFor("choose 1-1: ", seen);
    await terminal.type("1");
    seen = await terminal.waitFor("↳ submit_specification", seen);
    seen = await terminal.waitFor("confirm (y) or revise (r)? ", seen);
    await terminal.type("r");
    seen = await terminal.waitFor("What should change?", seen);
    await terminal.type("Name the export button.");
    await terminal.type("");
    seen = await terminal.waitFor("✓ specification/draft: ready", seen);
    seen = await terminal.waitFor("confirm (y) or revise (r)? ", seen);
    await terminal.type("y");
    seen = await terminal.waitFor("▸ plan/draft: the service's model works on it", seen);
    seen = await terminal.waitFor("↳ submit_plan", seen);
    seen = await terminal.waitFor("confirm (y) or revise (r)? ", seen);
    await terminal.type("y");
    await terminal.waitFor("completed", seen);
    assert.equal(await terminal.exit(), 0);

    const { stdout } = await runWeft(["runs", "--json"], { cwd: projectDir });
    assert.equal(JSON.parse(stdout).runs[0].status, "completed");
    assert.equal(model.requests.length, 12);
  } finally {
    await terminal.kill();
    await served.stop();
    await model.close();
    await Deno.remove(projectDir, { recursive: true });
    await Deno.remove(userDir, { recursive: true });
  }
});
