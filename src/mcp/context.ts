/**
 * What every MCP session shares: the engine and the facts about this service instance.
 *
 * @module
 */

import type { Engine } from "../engine/engine.ts";
import type { Logger } from "../lib/logger.ts";
import type { ClaimTable } from "../agent_calls/claim_table.ts";
import type { ModelRoles } from "../engine/model_roles.ts";
import type { CommandOutputSource } from "../engine/command_output.ts";
import type { ProjectTrustPort } from "./tools/trust.ts";
import type { RequestStates } from "./elicitation/request_state.ts";

/** Facts about the running instance that `status` reports. */
export interface InstanceInfo {
  instanceId: string;
  pid: number;
  version: string;
  startedAt: Date;
}

/** The shared state behind every endpoint and session. */
export interface ServiceContext {
  engine: Engine;
  instance: InstanceInfo;
  logger: Logger;
  /** Who owns which agent call; in memory only, shared by both external endpoints. */
  claims: ClaimTable;
  /** The service's model roles as `weft.json` and the user-level file say now. */
  models: ModelRoles;
  /** The output of the commands running now, as it arrives (the command runner's memory). */
  commandOutput: CommandOutputSource;
  /** The person's trust of the project's content, for `trust_project`. */
  projectTrust: ProjectTrustPort;
  /** Signs and checks the `requestState` of 2026-07-28 forms with this instance's in-memory key. */
  requestStates: RequestStates;
  /** How many MCP sessions are open right now, and the cap. */
  sessions(): { open: number; max: number };
}
