/**
 * What an MCP client loads into its agent's context from one endpoint before the person types anything:
 * the `tools/list` result plus the server `instructions`, counted as UTF-8 bytes of their JSON. The budget
 * test and `deno task bench` both measure with this.
 *
 * @module
 */

import type { Endpoint } from "../../src/mcp/endpoints.ts";
import { instructionsFor } from "../../src/mcp/instructions.ts";
import { listingFor } from "../../src/mcp/listing.ts";
import { toolsFor } from "../../src/mcp/tools/mod.ts";

/**
 * Bytes an endpoint may cost: 16 KB (≈ 4k tokens) on the IDE endpoints; on the internal ones, which list the
 * 11 workflow tools of the 17 and no agent rules, proportionally less (16 KB × 11/17 ≈ 10 KB), plus 1.5 KB for
 * the person's own tools (`move_run`, `retry_run`, `trust_project`, `revise_artifact`), which no IDE's agent
 * ever loads, and 0.5 KB for the error alternative every output schema states (~34 B a tool: a business
 * error's payload is structured content too).
 */
export const CONTEXT_BUDGET: Record<Endpoint["tokenClass"], number> = {
  external: 16 * 1024,
  internal: 12 * 1024,
};

/** One endpoint's cost, in bytes. */
export interface ContextCost {
  path: string;
  budget: number;
  /** `tools/list` result plus instructions. */
  total: number;
  toolsList: number;
  instructions: number;
  /** Each tool's entry in the listing, by name. */
  tools: Record<string, number>;
}

/** Measures `endpoint` from the same listing and instructions its sessions send. */
export function contextCost(endpoint: Endpoint): ContextCost {
  const tools = listingFor(endpoint, toolsFor(endpoint));
  const toolsList = bytes({ tools });
  const instructions = bytes(instructionsFor(endpoint));
  return {
    path: endpoint.path,
    budget: CONTEXT_BUDGET[endpoint.tokenClass],
    total: toolsList + instructions,
    toolsList,
    instructions,
    tools: Object.fromEntries(tools.map((tool) => [tool.name, bytes(tool)])),
  };
}

/** UTF-8 bytes of `value` as JSON. */
export function bytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}
