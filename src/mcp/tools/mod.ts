/**
 * Which tools each endpoint offers.
 *
 * @module
 */

import type { Endpoint } from "../endpoints.ts";
import type { ToolDefinition } from "../tool.ts";
import { statusTool } from "./status.ts";
import {
  answerAskTool,
  cancelRunTool,
  flowTool,
  getRunTool,
  listRunsTool,
  listWorkflowsTool,
  moveRunTool,
  retryRunTool,
  reviseArtifactTool,
} from "./workflow.ts";
import { getArtifactTool, getRecordTool, listArtifactsTool } from "./artifacts.ts";
import { interactTool } from "./interact.ts";
import { trustProjectTool } from "./trust.ts";
import {
  callAgentToolTool,
  claimAgentCallTool,
  completeAgentCallTool,
  failAgentCallTool,
  getAgentCallTool,
  readAgentAssetTool,
} from "./agent_calls.ts";

// deno-lint-ignore no-explicit-any
type AnyTool = ToolDefinition<any, any>;

const WORKFLOW_TOOLS: readonly AnyTool[] = [
  flowTool,
  listWorkflowsTool,
  getRunTool,
  listRunsTool,
  interactTool,
  answerAskTool,
  cancelRunTool,
  statusTool,
  getRecordTool,
  getArtifactTool,
  listArtifactsTool,
];
const AGENT_TASK_TOOLS: readonly AnyTool[] = [
  getAgentCallTool,
  claimAgentCallTool,
  callAgentToolTool,
  readAgentAssetTool,
  completeAgentCallTool,
  failAgentCallTool,
];

/** What only a person decides, through the CLI or Studio: never offered to an IDE's agent. */
const PERSON_TOOLS: readonly AnyTool[] = [moveRunTool, retryRunTool, trustProjectTool, reviseArtifactTool];

const EXTERNAL_TOOLS: readonly AnyTool[] = [...WORKFLOW_TOOLS, ...AGENT_TASK_TOOLS];
const INTERNAL_TOOLS: readonly AnyTool[] = [...WORKFLOW_TOOLS, ...PERSON_TOOLS];

/**
 * The tools of one endpoint: the workflow tools everywhere, the agent-task tools where the client executes,
 * the person's own tools on the internal endpoints. The same array every time, so that the listing built
 * from it can be reused by every session.
 */
export function toolsFor(endpoint: Endpoint): readonly ToolDefinition[] {
  if (endpoint.tokenClass === "internal") return INTERNAL_TOOLS;
  return endpoint.agentExecutor === "mcp_client" ? EXTERNAL_TOOLS : WORKFLOW_TOOLS;
}
