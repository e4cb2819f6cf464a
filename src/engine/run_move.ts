/**
 * Whether a waiting Run fits another definition of its workflow: what a person checks before moving a Run
 * to the current version. A Run moves only when it fits completely; each misfit is said exactly.
 *
 * @module
 */
import { canonicalJson } from "../lib/canonical_json.ts";
import type { RunState } from "./run_state.ts";
import { publishQuestions } from "./answers.ts";
import { getAt } from "./json_pointer.ts";
import { compileSchema } from "./json_schema.ts";
import type { LoadedWorkflow } from "./workflow/loader.ts";

/** Everything about `run` that `target` cannot carry on; empty when the Run fits. */
export function moveMisfits(run: RunState, target: LoadedWorkflow): string[] {
  const at = `${run.stageName}/${run.stepName}`;
  const stage = target.manifest.stages[run.stageName];
  if (!stage) return [`it is in stage "${run.stageName}", which the new version does not have`];
  const step = stage.steps[run.stepName];
  if (!step) return [`it is at step ${at}, which the new version does not have`];
  const misfits: string[] = [];
  const inList = run.list !== undefined && run.list.stageName === run.stageName &&
    run.list.current !== undefined;
  if (inList !== (stage.forEach !== undefined)) {
    misfits.push(
      inList
        ? `it works through the items of stage "${run.stageName}", which is no list stage in the new version`
        : `stage "${run.stageName}" is a list stage in the new version, and the Run has no items there`,
    );
  }
  const verdict = compileSchema(stage.state.schema)(run.state);
  if (!verdict.ok) {
    misfits.push(
      `its stage state does not match the new state schema of "${run.stageName}": ${
        verdict.errors.join("; ")
      }`,
    );
  }
  const action = run.pendingAction;
  const call = run.pendingAgentCall;
  const command = run.pendingCommand;
  if (action?.kind === "user_ask_questions") {
    if (step.kind !== "ask") misfits.push(`it waits for answers, but step ${at} is now a ${step.kind} step`);
    else if (step.questions) {
      const published = (action.request as { questions: { id: string }[] }).questions;
      const now = publishQuestions(step.questions);
      if (canonicalJson(published) !== canonicalJson(now)) {
        misfits.push(
          `the questions it waits on (${ids(published)}) differ from those of step ${at} in the new ` +
            `version (${ids(now)})`,
        );
      }
    }
  } else if (action?.kind === "user_ask_confirmation") {
    if (step.kind !== "confirm") {
      misfits.push(`it waits for a confirmation, but step ${at} is now a ${step.kind} step`);
    } else {
      const shown = (action.request as { context?: unknown }).context ?? null;
      const now = step.context === undefined ? null : getAt(run.state, step.context) ?? null;
      if (canonicalJson(shown) !== canonicalJson(now)) {
        misfits.push(
          `step ${at} of the new version would show other content for confirmation (${
            step.context ?? "none"
          })`,
        );
      }
    }
  } else if (call) {
    if (step.kind !== "agent") {
      misfits.push(`it waits for agent "${call.agentId}", but step ${at} is now a ${step.kind} step`);
    } else if (step.agentId !== call.agentId) {
      misfits.push(`it waits for agent "${call.agentId}", but step ${at} now calls agent "${step.agentId}"`);
    }
    if (call.phase === "claimed") {
      misfits.push("an agent has claimed its call; move it once the agent has completed or failed it");
    }
  } else if (command) {
    if (step.kind !== "command") {
      misfits.push(`it waits on a command, but step ${at} is now a ${step.kind} step`);
    }
    if (command.phase !== "untrusted") {
      misfits.push("its command is under way; move it once the command has ended");
    }
  }
  return misfits;
}

function ids(questions: { id: string }[]): string {
  return questions.map((question) => question.id).join(", ");
}
