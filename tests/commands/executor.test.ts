/**
 * The command executor in process, where an engine operation can be made to fail: a Run whose command's
 * report cannot be recorded does not wait for good, it fails with a classified error its person can resume.
 */
import assert from "node:assert/strict";
import { type CommandEngine, CommandExecutor } from "../../src/commands/executor.ts";
import { WeftError } from "../../src/errors.ts";
import { ModelConfig } from "../../src/model/config.ts";
import { eventually } from "../support/deadline.ts";
import { openEngine } from "../engine/support.ts";
import { projectTree } from "../../src/files/project_tree.ts";
import { commandWorkflow } from "./support.ts";

Deno.test("a command whose result cannot be recorded fails its Run as COMMAND_UNAVAILABLE instead of leaving it waiting", async () => {
  const projectDir = await Deno.realPath(await Deno.makeTempDir({ prefix: "weft-commands-" }));
  // The step's workflow is embedded (as "review"), so its command is trusted by shipping.
  const engine = await openEngine({ manifest: commandWorkflow("review", { run: ["true"] }) });
  const failing: CommandEngine = {
    onRunChanged: (listener) => engine.onRunChanged(listener),
    getRun: (runId) => engine.getRun(runId),
    commandSpec: (runId, commandId) => engine.commandSpec(runId, commandId),
    startCommand: (...args) => engine.startCommand(...args),
    blockCommand: (...args) => engine.blockCommand(...args),
    completeCommand: () => Promise.reject(new WeftError("STORAGE_ERROR", "The store could not complete it.")),
    failCommand: (...args) => engine.failCommand(...args),
  };
  const executor = new CommandExecutor({
    engine: failing,
    projectDir,
    projectTree: projectTree(projectDir),
    config: () => ModelConfig.read(projectDir),
    env: (name) => Deno.env.get(name),
    log: () => {},
  });
  try {
    const run = await engine.startRun({
      flowName: "review",
      intent: "check",
      source: "cli",
      agentExecutor: "service",
    });
    const failed = await eventually("the Run to fail", async () => {
      const now = await engine.getRun(run.runId);
      return now.status === "failed" ? now : undefined;
    });
    assert.equal(failed.lastError?.code, "COMMAND_UNAVAILABLE");
    assert.match(
      failed.lastError!.message,
      /could not be carried out \(STORAGE_ERROR\); resume with weft retry/,
    );
  } finally {
    await executor.stop();
    await engine.close();
    await Deno.remove(projectDir, { recursive: true });
  }
});
