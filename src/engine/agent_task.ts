/**
 * What an agent call shows the agent: its task, the run context its tools read, and its declared skill
 * assets. Pure reads over a loaded workflow and a persisted Run; the engine checks the call is pending.
 *
 * @module
 */
import { invalid, WeftError } from "../errors.ts";
import type { RunState } from "./run_state.ts";
import { publishTool, type RunContext } from "./tool_kinds.ts";
import type { AgentAssetView, AgentTaskDefinition } from "./views.ts";
import type { LoadedWorkflow } from "./workflow/loader.ts";
import type { StepDef } from "./workflow/manifest.ts";
import { assetPath, MAX_ASSET_BYTES } from "./workflow/skills.ts";

/** An agent step definition. */
export type AgentStep = Extract<StepDef, { kind: "agent" }>;

/** The task of the agent call `callId` pending at `step` of `run`. */
export function buildAgentTask(
  run: RunState,
  workflow: LoadedWorkflow,
  step: AgentStep,
  callId: string,
): AgentTaskDefinition {
  const stateSchema = workflow.manifest.stages[run.stageName].state.schema;
  return {
    runId: run.runId,
    callId,
    agentId: step.agentId,
    cursor: { stageName: run.stageName, stepName: run.stepName },
    instructions: workflow.instructions.get(`${run.stageName}/${run.stepName}`) ?? "",
    skills: (step.skills ?? []).map((name) => workflow.skills.get(name)!).map((skill) => ({
      name: skill.name,
      description: skill.description,
      content: skill.content,
      assets: skill.assets.map((asset) => ({ id: asset.id, name: asset.name })),
    })),
    tools: (step.tools ?? []).map((tool) => publishTool(tool, stateSchema)),
    outputSchema: step.output.schema,
    ...itemOf(run),
  };
}

/** The list item the Run works on now, when its stage is a list stage. */
function itemOf(run: RunState): Pick<AgentTaskDefinition, "item"> {
  const item = run.list?.stageName === run.stageName && run.list.current !== undefined
    ? run.list.items.find((entry) => entry.id === run.list!.current)
    : undefined;
  if (!item) return {};
  return { item: { id: item.id, title: item.title, attempt: item.attempts, data: item.data } };
}

/** The document the `run_context` tool returns, with what the Run's stages committed (`committed`). */
export function buildRunContext(run: RunState, committed: RunContext["artifacts"]): RunContext {
  return {
    runId: run.runId,
    flowName: run.flowName,
    intent: run.intent,
    stageName: run.stageName,
    stepName: run.stepName,
    state: run.state,
    answers: run.stageAnswers.map(({ stepName, kind, request, answer, at }) => ({
      stepName,
      kind,
      request,
      answer,
      at,
    })),
    feedback: run.stageAnswers.flatMap((entry) => {
      const answer = entry.answer as { isConfirmed?: boolean; feedback?: string };
      return entry.kind === "user_ask_confirmation" && !answer.isConfirmed && answer.feedback
        ? [answer.feedback]
        : [];
    }),
    artifacts: committed,
  };
}

/**
 * Reads a declared asset of the step's skills through `read`, which gives the bytes stored with the Run's
 * version: an edited or deleted folder never changes what a Run reads.
 */
export async function readSkillAsset(
  workflow: LoadedWorkflow,
  step: AgentStep,
  assetId: string,
  read: (path: string) => Promise<Uint8Array>,
): Promise<AgentAssetView> {
  const asset = (step.skills ?? []).flatMap((name) => workflow.skills.get(name)!.assets)
    .find((candidate) => candidate.id === assetId);
  if (!asset) throw invalid(`asset "${assetId}" is not declared by this agent step's skills`);
  const { name } = asset;
  const bytes = await read(assetPath(assetId));
  if (bytes.length > MAX_ASSET_BYTES) {
    throw new WeftError("TOOL_FAILED", `asset "${assetId}" is larger than 1 MiB`);
  }
  try {
    return {
      assetId,
      name,
      encoding: "utf8",
      content: new TextDecoder("utf-8", { fatal: true }).decode(bytes),
    };
  } catch {
    return { assetId, name, encoding: "base64", content: bytes.toBase64() };
  }
}
