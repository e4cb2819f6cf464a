/**
 * What the tests of `deliver` share at the engine: a confirmed plan made through the real `intent` workflow
 * (its agent played by the engine's own calls), the three-task plan the issue describes, and the moves of one
 * task: the agent implementing it, the service running its verify command, the person answering.
 *
 * @module
 */
import type { Engine } from "../../src/engine/engine.ts";
import type { CommandResult } from "../../src/engine/command_step.ts";
import type { RunView } from "../../src/engine/views.ts";
import { plan, SPECIFICATION } from "./intent_agent.ts";

/** A task of a plan, as the intent workflow's schema takes it. */
export function task(id: string, dependsOn: string[] = []) {
  return {
    id,
    title: `Task ${id}`,
    description: `Implement ${id}.`,
    requirements: ["R1"],
    files: [`src/${id.toLowerCase()}.ts`],
    tests: [`tests/${id.toLowerCase()}_test.ts`],
    ...(dependsOn.length ? { dependsOn } : {}),
  };
}

/** The plan of three tasks: the third depends on the first. */
export const THREE_TASKS = { ...plan(), tasks: [task("T1"), task("T2"), task("T3", ["T1"])] };

/** Runs `intent` to its end with `document` as the plan; resolves with the completed Run. */
export async function confirmedPlan(engine: Engine, document: unknown = THREE_TASKS): Promise<RunView> {
  let run = await engine.startRun({
    flowName: "intent",
    intent: "deliver something",
    source: "agent_ide",
    agentExecutor: "mcp_client",
  });
  for (
    const [toolId, value] of [["submit_specification", SPECIFICATION], ["submit_plan", document]] as const
  ) {
    const callId = run.pendingAgentCall!.id;
    await engine.claimAgentCall({ runId: run.runId, callId, claimant: "mcp_client" });
    await engine.runAgentTool({ runId: run.runId, callId, toolId, input: { value } });
    run = await engine.completeAgentCall({ runId: run.runId, callId, result: { outcome: "ready" } });
    run = await engine.answerAsk({
      runId: run.runId,
      actionId: run.pendingAction!.id,
      answer: { isConfirmed: true },
      source: "agent_ide",
      nativeForm: true,
    });
  }
  if (run.status !== "completed") throw new Error(`intent did not complete: ${JSON.stringify(run)}`);
  return run;
}

/** Starts `deliver` over what `intent` names, its agent steps an IDE agent's. */
export function startDeliver(engine: Engine, intent: string): Promise<RunView> {
  return engine.startRun({ flowName: "deliver", intent, source: "agent_ide", agentExecutor: "mcp_client" });
}

/**
 * The agent's side of one attempt: claims the pending call, reads its context, lets `work` use the step's
 * tools, completes it as implemented. Resolves with the context it read and the Run after.
 */
export async function implement(
  engine: Engine,
  run: RunView,
  work: (tool: (toolId: string, input: unknown) => Promise<unknown>) => Promise<void> = async () => {},
): Promise<{ context: { state: Record<string, unknown> }; run: RunView }> {
  const callId = run.pendingAgentCall?.id;
  if (!callId) throw new Error(`no agent call pending: ${JSON.stringify(run)}`);
  await engine.claimAgentCall({ runId: run.runId, callId, claimant: "mcp_client" });
  const tool = (toolId: string, input: unknown) =>
    engine.runAgentTool({ runId: run.runId, callId, toolId, input });
  const context = await tool("context", {}) as { state: Record<string, unknown> };
  await work(tool);
  const after = await engine.completeAgentCall({
    runId: run.runId,
    callId,
    result: { outcome: "implemented", summary: "done as asked" },
  });
  return { context, run: after };
}

/** The service's side of the verify command: it runs and exits with `exitCode`, printing `output`. */
export async function verify(engine: Engine, run: RunView, exitCode: number, output = ""): Promise<RunView> {
  const commandId = run.pendingCommand?.id;
  if (!commandId) throw new Error(`no command pending: ${JSON.stringify(run)}`);
  await engine.startCommand({ runId: run.runId, commandId, argv: ["sh", "verify.sh"], cwd: "" });
  const result: CommandResult = {
    exitCode,
    signal: null,
    timedOut: false,
    durationMs: 5,
    stdout: { text: output, cutBytes: 0 },
    stderr: { text: "", cutBytes: 0 },
  };
  return await engine.completeCommand({ runId: run.runId, commandId, result });
}

/** The person's answer to what the Run waits for, given in the IDE's form. */
export async function answer(engine: Engine, run: RunView, value: unknown): Promise<RunView> {
  const actionId = run.pendingAction?.id;
  if (!actionId) throw new Error(`no action pending: ${JSON.stringify(run)}`);
  return await engine.answerAsk({
    runId: run.runId,
    actionId,
    answer: value,
    source: "agent_ide",
    nativeForm: true,
  });
}

/** The status of each task of the Run's list, by id. */
export function statuses(run: RunView): Record<string, string> {
  return Object.fromEntries((run.list?.items ?? []).map((item) => [item.id, item.status]));
}
