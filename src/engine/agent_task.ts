/**
 * What an agent call shows the agent: its task, the run context its tools read, and its declared skill
 * assets. Pure reads over a loaded workflow and a persisted Run; the engine checks the call is pending.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { invalid, WeftError } from "../errors.ts";
import type { ArtifactStorage } from "./storage.ts";
import type { RunState } from "./run_state.ts";
import { publishTool, type RunContext } from "./tool_kinds.ts";
import type { AgentAssetView, AgentTaskDefinition } from "./views.ts";
import type { LoadedWorkflow } from "./workflow/loader.ts";
import type { StepDef } from "./workflow/manifest.ts";
import { MAX_ASSET_BYTES } from "./workflow/skills.ts";

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
  };
}

/** The document the `run_context` tool returns. */
export function buildRunContext(run: RunState, artifacts: ArtifactStorage): RunContext {
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
    artifacts: artifacts.committedByRun(run.runId),
  };
}

/**
 * Reads a declared asset of the step's skills. A project file that became a symbolic link, stopped being a
 * file or grew past 1 MiB since load is refused rather than followed.
 */
export function readSkillAsset(workflow: LoadedWorkflow, step: AgentStep, assetId: string): AgentAssetView {
  const asset = (step.skills ?? []).flatMap((name) => workflow.skills.get(name)!.assets)
    .find((candidate) => candidate.id === assetId);
  if (!asset) throw invalid(`asset "${assetId}" is not declared by this agent step's skills`);
  const { file, name } = asset;
  if (file.kind === "text") return { assetId, name, encoding: "utf8", content: file.text };
  let info: Deno.FileInfo | undefined;
  try {
    info = file.kind === "disk" ? Deno.lstatSync(file.path) : undefined;
  } catch {
    info = undefined;
  }
  if (file.kind !== "disk" || !info?.isFile) {
    throw new WeftError(
      "TOOL_FAILED",
      `asset "${assetId}" changed since the workflow was loaded; reload workflows`,
    );
  }
  if (info.size > MAX_ASSET_BYTES) {
    throw new WeftError("TOOL_FAILED", `asset "${assetId}" is larger than 1 MiB`);
  }
  const bytes = Deno.readFileSync(file.path);
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
    return { assetId, name, encoding: "base64", content: Buffer.from(bytes).toString("base64") };
  }
}
