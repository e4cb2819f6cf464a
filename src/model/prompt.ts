/**
 * What the service's model is sent for one agent call, built from the same task an IDE's agent claims: the
 * step's instructions and Skills as system content, exactly the declared tools as function tools, a tool for
 * the declared Skill assets (by id only) and, in `tool` mode, a tool that takes the final result.
 *
 * @module
 */
import type { AgentTaskDefinition } from "../engine/views.ts";
import type { TurnTool } from "./turn.ts";

/** How the final result is obtained. */
export type StructuredOutputMode = "tool" | "json_schema" | "json_object";

/** The function tools of one agent call, and which names are weft's own rather than declared. */
export interface OfferedTools {
  tools: TurnTool[];
  /** The name of the tool that takes the final result (`tool` mode only). */
  resultTool?: string;
  /** The name of the tool that reads a declared Skill asset, when the Skills have any. */
  assetTool?: string;
}

/** The tools offered: the declared ones under their ids, then weft's own under names that do not clash. */
export function offeredTools(task: AgentTaskDefinition, mode: StructuredOutputMode): OfferedTools {
  const tools: TurnTool[] = task.tools.map((declared) => ({
    name: declared.id,
    description: declared.description,
    inputSchema: declared.inputSchema,
  }));
  const taken = new Set(tools.map((offered) => offered.name));
  const free = (name: string) => {
    while (taken.has(name)) name += "_";
    taken.add(name);
    return name;
  };
  const assetIds = task.skills.flatMap((skill) => skill.assets.map((asset) => asset.id));
  let assetTool: string | undefined;
  if (assetIds.length) {
    assetTool = free("read_skill_asset");
    tools.push({
      name: assetTool,
      description: "Reads one asset of the Skills above by its id.",
      inputSchema: {
        type: "object",
        properties: { assetId: { type: "string", enum: assetIds } },
        required: ["assetId"],
        additionalProperties: false,
      },
    });
  }
  let resultTool: string | undefined;
  if (mode === "tool") {
    resultTool = free("complete_agent_call");
    tools.push({
      name: resultTool,
      description: "Finishes this task with its final result. Call it exactly once, when the work is done.",
      inputSchema: task.outputSchema,
    });
  }
  return { tools, resultTool, assetTool };
}

/** The system content: the step's instructions, then each Skill with its assets' ids. */
export function systemContent(task: AgentTaskDefinition, mode: StructuredOutputMode): string {
  const parts = [task.instructions.trim()];
  for (const skill of task.skills) {
    const assets = skill.assets.length
      ? `\n\nAssets of this Skill (read them by id): ${
        skill.assets.map((a) => `${a.id} (${a.name})`).join(", ")
      }`
      : "";
    parts.push(`# Skill: ${skill.name}\n\n${skill.description}\n\n${skill.content.trim()}${assets}`);
  }
  if (mode === "json_object") {
    parts.push(
      `# Final result\n\nAnswer with one JSON object matching this JSON Schema:\n${
        JSON.stringify(task.outputSchema)
      }`,
    );
  }
  return parts.filter(Boolean).join("\n\n");
}

/** The opening user message: which step this is and how to finish it. */
export function openingMessage(task: AgentTaskDefinition, offered: OfferedTools): string {
  const finish = offered.resultTool
    ? `When the work is done, call ${offered.resultTool} with the final result.`
    : "When the work is done, answer with the final result as one JSON object and nothing else.";
  const item = task.item
    ? ` It works on item "${task.item.id}" (${task.item.title}) of the stage's list, attempt ${task.item.attempt}: ` +
      `${JSON.stringify(task.item.data)}.`
    : "";
  return `You are doing step "${task.cursor.stepName}" of stage "${task.cursor.stageName}" of Run ${task.runId}.` +
    `${item} Follow the instructions; use the tools to read what you need and to submit your work. ${finish}`;
}

/** The message that sends an invalid result back with what is wrong with it. */
export function repairMessage(violations: string, offered: OfferedTools): string {
  const again = offered.resultTool ? `call ${offered.resultTool} again` : "answer again with one JSON object";
  return `Your result was rejected: ${violations}. Fix exactly these problems and ${again}.`;
}
