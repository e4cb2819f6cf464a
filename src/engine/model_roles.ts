/**
 * What the engine needs to know about the service's models: which role runs each agent step, whether a
 * role can run now, and the budgets of one agent call. The model configuration itself lives outside the
 * engine; the service passes in how to ask it.
 *
 * @module
 */
import type { LoadedWorkflow } from "./workflow/loader.ts";
import type { Manifest, ModelSettings, StepDef } from "./workflow/manifest.ts";

/** What `status` reports about one role, without touching the network. */
export interface RoleReadiness {
  role: string;
  ready: boolean;
  provider?: string;
  model?: string;
  /** The API root the entry talks to. */
  baseURL?: string;
  /** `project` (weft.json) or `user` (the user-level file). */
  origin?: "project" | "user";
  /**
   * For an entry of the project's weft.json: whether the person trusts the project's content. `false` means
   * the role is named only by the untrusted project file and nothing of its entry is used.
   */
  trusted?: boolean;
  apiKeyEnv?: string;
  keySet?: boolean;
  reason?: string;
}

/** The service's model roles as its configuration says now (the service reads it; the engine only asks). */
export interface ModelRoles {
  /** Whether `role` can run now. */
  readiness(role: string): RoleReadiness;
  /** Every configured role, `default` first. */
  list(): RoleReadiness[];
  /**
   * Whether any model is configured at all: either file names a role (trusted or not), or one does not read.
   * Without any, the IDE's agent works the agent steps of Runs the terminal and Studio start.
   */
  configured(): boolean;
}

/** Roles that never resolve: a service without model configuration, and engines in unit tests. */
export const NO_MODELS: ModelRoles = {
  readiness: (role) => ({
    role,
    ready: false,
    reason:
      `no model is configured for the role "${role}": add models.${role} to weft.json (see docs/models.md)`,
  }),
  list: () => [NO_MODELS.readiness("default")],
  configured: () => false,
};

/** The budgets of one agent call driven by the service's model, with every default applied. */
export interface ModelCallSettings {
  role: string;
  maxTurns: number;
  maxToolCalls: number;
  maxSeconds: number;
  maxRepairs: number;
}

/** The defaults of {@linkcode ModelCallSettings} when neither the step nor the workflow sets a field. */
export const MODEL_CALL_DEFAULTS: ModelCallSettings = {
  role: "default",
  maxTurns: 20,
  maxToolCalls: 50,
  maxSeconds: 600,
  maxRepairs: 2,
};

/** The settings of an agent step: its own fields, then the workflow's, then the defaults. */
export function modelCallSettings(manifest: Manifest, step: StepDef): ModelCallSettings {
  const own: ModelSettings = step.kind === "agent" ? step.model ?? {} : {};
  const shared: ModelSettings = manifest.model ?? {};
  const pick = <K extends keyof ModelCallSettings>(key: K) =>
    (own[key] ?? shared[key] ?? MODEL_CALL_DEFAULTS[key]) as ModelCallSettings[K];
  return {
    role: pick("role"),
    maxTurns: pick("maxTurns"),
    maxToolCalls: pick("maxToolCalls"),
    maxSeconds: pick("maxSeconds"),
    maxRepairs: pick("maxRepairs"),
  };
}

/** The distinct roles a workflow's agent steps need, in declaration order. */
export function rolesOf(workflow: LoadedWorkflow): string[] {
  const roles = new Set<string>();
  for (const stage of Object.values(workflow.manifest.stages)) {
    for (const step of Object.values(stage.steps)) {
      if (step.kind === "agent") roles.add(modelCallSettings(workflow.manifest, step).role);
    }
  }
  return [...roles];
}

/** Why a role cannot run: `NOT_TRUSTED` when only the untrusted project names it. */
export interface ModelBlock {
  code: "CONFIGURATION_REQUIRED" | "NOT_TRUSTED";
  reason: string;
}

/** The classified code of a role that is not ready. */
export function blockCode(readiness: RoleReadiness): ModelBlock["code"] {
  return readiness.trusted === false ? "NOT_TRUSTED" : "CONFIGURATION_REQUIRED";
}

/** Why the service's model cannot run this workflow's agent steps now, or undefined when it can. */
export function modelBlock(workflow: LoadedWorkflow, models: ModelRoles): ModelBlock | undefined {
  for (const role of rolesOf(workflow)) {
    const readiness = models.readiness(role);
    if (!readiness.ready) {
      return {
        code: blockCode(readiness),
        reason: `this workflow has agent steps, which Runs created here execute with the service's model; ` +
          (readiness.reason ?? `the role "${role}" is not ready`),
      };
    }
  }
  return undefined;
}
