/**
 * What `weft doctor` and `weft models` read of a project in process, with or without a running service: its
 * workflows as the service would load them, and its model roles as the service would configure them (from
 * the files alone; the network is touched only to probe a role, on request). The composition root offers
 * this so that the CLI needs none of the engine's or the model layer's modules itself.
 *
 * @module
 */

import type { RoleReadiness } from "../engine/model_roles.ts";
import { loadWorkflow } from "../engine/workflow/loader.ts";
import { readProjectSources } from "../engine/workflow/source.ts";
import { projectTreeAt } from "../files/project_tree.ts";
import { ModelConfig } from "../model/config.ts";
import { checkRole, type RoleCheck } from "../model/probe.ts";
import { reviewOf, type TrustReview } from "../model/trust_review.ts";

export type { RoleCheck, RoleReadiness, TrustReview };

/** A workflow of the project's `workflows/` and whether it loads, with why not (file and JSON pointer). */
export interface WorkflowLoad {
  name: string;
  available: boolean;
  reason?: string;
}

/** The project's own workflows as the service would load them now. */
export function loadProjectWorkflows(projectDir: string): WorkflowLoad[] {
  return readProjectSources(projectTreeAt(projectDir)).map(loadWorkflow).map((entry) => ({
    name: entry.name,
    available: entry.ok,
    ...(entry.ok ? {} : { reason: entry.reason }),
  }));
}

/** One model role as the service would configure it now. */
export interface RoleInspection extends RoleReadiness {
  /** Whether a file names the role (else it is the `default` role nobody configured). */
  configured: boolean;
  /** Whether its entry resolves to a model the service may use (it may still lack its key). */
  resolves: boolean;
}

/** The project's model configuration as read from its files, the user's file and the trust record. */
export interface ModelsInspection {
  /** Every role either file names, `default` first. */
  roles: RoleInspection[];
  files: { project: string; user?: string; trust?: string };
  /** The project's content that needs trust, and whether the person trusts it. */
  trust: TrustReview;
  /** Why the person's trust record cannot be used, when it cannot: then no project is trusted. */
  trustRecordProblem?: string;
  /**
   * Asks the server of `role` whether it answers, accepts the key and knows the model. Only a role that
   * resolves is ever dialled: the person configured it, or trusts the project that names it.
   */
  probe(role: string): Promise<RoleCheck>;
}

/** Reads the project's model configuration, as the service reads it at every use. */
export function inspectModels(projectDir: string): ModelsInspection {
  const config = ModelConfig.read(projectDir);
  const { record } = config.trust;
  const { locations } = config;
  return {
    roles: config.roles().map((role) => {
      const resolved = config.resolve(role);
      return {
        ...config.readiness(role),
        configured: resolved.ok || !/no model is configured/.test(resolved.reason),
        resolves: resolved.ok,
      };
    }),
    files: { project: locations.projectFile, user: locations.userFile, trust: locations.trustFile },
    trust: reviewOf(config),
    ...(record.kind === "invalid" ? { trustRecordProblem: record.problem } : {}),
    probe(role) {
      const resolved = config.resolve(role);
      if (!resolved.ok) {
        return Promise.reject(new Error(`role "${role}" does not resolve: ${resolved.reason}`));
      }
      return checkRole(resolved.model, config.keyOf(resolved.model));
    },
  };
}
