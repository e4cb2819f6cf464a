/**
 * The four MCP endpoints. Only the path decides the source of what arrives there and who executes the agent
 * steps of Runs created there (docs/reference.md, "Endpoints"); the engine is told both.
 *
 * @module
 */

import type { AgentExecutor, Source } from "../engine/views.ts";

/** Which bearer token opens an endpoint: the IDE's (external) or the CLI's and Studio's (internal). */
export type TokenClass = "external" | "internal";

/** One MCP endpoint of the service. */
export interface Endpoint {
  path: string;
  source: Source;
  tokenClass: TokenClass;
  /** Codex gets shorter titles, "weft · <flow>" form messages and approval-free annotations. */
  presentation: "standard" | "codex";
  /**
   * Who executes the agent steps of Runs created here: the IDE's agent (`mcp_client`), the only one that gets
   * the six agent-task tools, or the service's own model (`service`) for the terminal and Studio (the engine
   * gives those to the IDE's agent when no model is configured).
   */
  agentExecutor: AgentExecutor;
}

/**
 * How long a tool call may wait for a person's answer to a form (`interact`); people step away, and the Run
 * keeps waiting after this anyway. An IDE's tool timeout must outlast it (`weft config` says so).
 */
export const HUMAN_WAIT_MS = 24 * 60 * 60 * 1000;

/** Every endpoint, by path. */
export const ENDPOINTS: readonly Endpoint[] = [
  {
    path: "/mcp",
    source: "agent_ide",
    tokenClass: "external",
    presentation: "standard",
    agentExecutor: "mcp_client",
  },
  {
    path: "/mcp/codex",
    source: "agent_ide",
    tokenClass: "external",
    presentation: "codex",
    agentExecutor: "mcp_client",
  },
  {
    path: "/internal/mcp",
    source: "cli",
    tokenClass: "internal",
    presentation: "standard",
    agentExecutor: "service",
  },
  {
    path: "/internal/mcp/studio",
    source: "studio",
    tokenClass: "internal",
    presentation: "standard",
    agentExecutor: "service",
  },
];

const BY_PATH = new Map(ENDPOINTS.map((endpoint) => [endpoint.path, endpoint]));

/** The endpoint at exactly this path (no trailing-slash or case folding), if any. */
export function endpointAt(path: string): Endpoint | undefined {
  return BY_PATH.get(path);
}

/** The endpoint a client of `source` must use; internal sources never map to an external path. */
export function endpointFor(source: Source, options: { codex?: boolean } = {}): Endpoint {
  if (source === "agent_ide") return BY_PATH.get(options.codex ? "/mcp/codex" : "/mcp")!;
  return BY_PATH.get(source === "cli" ? "/internal/mcp" : "/internal/mcp/studio")!;
}
