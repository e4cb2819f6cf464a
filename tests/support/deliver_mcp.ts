/**
 * A plan confirmed through the real `intent` workflow over MCP: the IDE's agent submits the specification
 * and the plan, the person confirms each on the internal endpoint. What the `deliver` suites start from.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { RunView } from "../../src/engine/views.ts";
import type { Client } from "./sdk_test_client.ts";
import { call } from "./service.ts";
import { handOff, SPECIFICATION } from "./intent_agent.ts";
import { THREE_TASKS } from "./deliver.ts";

/** Runs `intent` to completed with `plan` (the three-task plan by default); resolves with the Run. */
export async function confirmedPlanOverMcp(
  { ide, person }: { ide: Client; person: Client },
  plan: unknown = THREE_TASKS,
): Promise<RunView> {
  let run = (await call<{ run: RunView }>(ide, "flow", { flowName: "intent", intent: "three tasks" })).run;
  const send = async (name: string, args: Record<string, unknown>) => {
    try {
      return { ok: true, value: await call(ide, name, args) };
    } catch {
      return { ok: false };
    }
  };
  for (const [stage, document] of [["specification", SPECIFICATION], ["plan", plan]] as const) {
    const done = await handOff(send, run, { stage, document, claimId: `ide-${stage}` }) as { run: RunView };
    assert.ok(done, `the ${stage} handoff failed`);
    const args = { runId: run.runId, actionId: done.run.pendingAction!.id, answer: { isConfirmed: true } };
    run = (await call<{ run: RunView }>(person, "answer_ask", args)).run;
  }
  assert.equal(run.status, "completed");
  return run;
}
